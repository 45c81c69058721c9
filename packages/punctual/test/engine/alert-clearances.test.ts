// A success's clearance waits up to CLEARANCE_DELAY_MS for the round that writes it: runs of ten schedules
// that succeed 10 ms apart share a round of the alert evaluator instead of one round each, and an open
// run_dead alert is still resolved by the next success, within that delay. In-memory SQLite, a TestClock.

import { afterEach, describe, expect, it } from 'vitest';
import { CLEARANCE_DELAY_MS } from '../../src/engine/alert-evaluator.js';
import type { AlertStore } from '../../src/store/alert-store.js';
import { sqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { countingCalls } from '../support/counting-store.js';
import { harness, type Harness } from '../support/harness.js';

let h: Harness;
afterEach(async () => h?.close());

const SECOND = 1_000;

describe('alert clearances', () => {
  it('successes 10 ms apart are cleared in a shared round, not one round each', async () => {
    const counted = countingCalls(sqliteStore({ path: ':memory:' }), 'resolveAlerts');
    h = await harness({ store: counted.store });
    h.s.handle('h', () => {});
    const t0 = h.clock.now();
    for (let i = 0; i < 10; i++) {
      await h.s.put({
        key: `k${i}`,
        spec: '@every 1s',
        startAt: t0 + SECOND + 10 * i,
        target: { handler: 'h' },
      });
    }
    await h.clock.advance(SECOND - 1);
    const before = counted.calls();
    // 1 ms at a time over the hundred milliseconds the ten first runs take, then the delay.
    for (let t = 0; t < 100 + CLEARANCE_DELAY_MS + 1; t++) await h.clock.advance(1);
    expect(h.of('run:succeeded').length).toBe(10);
    const rounds = counted.calls() - before;
    expect(rounds).toBeGreaterThanOrEqual(1);
    expect(rounds).toBeLessThanOrEqual(2);
  });

  it('a success resolves the open run_dead alert within the delay', async () => {
    h = await harness();
    let failing = true;
    h.s.handle('job', () => {
      if (failing) throw new Error('down');
    });
    await h.s.put({
      key: 'job',
      spec: '@every 1s',
      target: { handler: 'job' },
      policies: { retry: { maxAttempts: 1, backoff: 'fixed', delayMs: 100, jitter: false } },
    });
    await h.drive(h.waitFor('alert:opened'), 100);
    failing = false;
    let succeededAt = 0;
    const succeeded = h.waitFor('run:succeeded').then(() => (succeededAt = h.clock.now()));
    const resolved = h.waitFor('alert:resolved');
    await h.drive(succeeded, 1);
    await h.drive(resolved, 1);
    const { alert } = await resolved;
    expect(alert.kind).toBe('run_dead');
    expect(alert.resolvedAt! - succeededAt).toBeGreaterThanOrEqual(0);
    expect(alert.resolvedAt! - succeededAt).toBeLessThanOrEqual(CLEARANCE_DELAY_MS);
    const all = await (h.s.store as unknown as AlertStore).listAlerts({
      tenantId: 'default',
      scheduleKey: 'job',
      limit: 10,
    });
    expect(all.map((a) => a.state)).toEqual(['resolved']);
  });
});
