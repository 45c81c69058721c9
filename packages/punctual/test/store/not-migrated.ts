// put() before start(): a store that was never migrated answers STORE_NOT_MIGRATED, which names the call
// to make, instead of the database's raw "no such table" / "relation does not exist". Shared by the SQLite
// and PostgreSQL store tests; `open` returns a store on an empty database, never migrated.

import { expect, it } from 'vitest';
import { createScheduler } from '../../src/scheduler.js';
import type { Store } from '../../src/store/store.js';
import { TestClock } from '../support/test-clock.js';
import { draft, T0, TENANT } from '../support/fixtures.js';

export function notMigratedTests(open: () => Store): void {
  it('a store used before migrate() answers STORE_NOT_MIGRATED, writing nothing', async () => {
    const store = open();
    const refused = {
      code: 'STORE_NOT_MIGRATED',
      message: expect.stringMatching(/start\(\) or migrate\(\)/),
    };
    await expect(store.getSchedule(TENANT, 'report')).rejects.toMatchObject(refused);
    await expect(
      store.putSchedule({ draft: draft(), nextFireAt: T0, now: T0, expectNew: true }),
    ).rejects.toMatchObject(refused);
    await expect(store.nextRunDueAt()).rejects.toMatchObject(refused);
    await expect(
      store.claimDueSchedules({ now: T0, horizon: T0, limit: 10, leaseMs: 1000 }),
    ).rejects.toMatchObject(refused);
    expect(await store.schemaVersion?.()).toMatchObject({ applied: 0 });
  });

  it('scheduler.put() before start() says to call start() or migrate(); after migrate() it works', async () => {
    const s = createScheduler({ store: open(), clock: new TestClock('2026-01-05T00:00:00Z') });
    s.handle('job', () => {});
    const input = { key: 'early', spec: '@every 1h', target: { handler: 'job' } };
    await expect(s.put(input)).rejects.toMatchObject({ code: 'STORE_NOT_MIGRATED' });
    await s.migrate();
    const { schedule, created } = await s.put(input);
    expect(created).toBe(true);
    expect(schedule.key).toBe('early');
    expect(s.started).toBe(false);
  });
}
