// The not-fired report of an overdue schedule and the materializer's low-water mark. On PostgreSQL the
// report marks the schedule's row, and a materializer claim in that moment skips the locked row, ends its
// step "caught up" and raises its mark past the schedule; nothing then looks below the mark until the next
// full scan, which a test clock never reaches (a CI run saw `@at` 2022 saved in 2026 never run). Here the
// skip is forced: the store's claims see nothing until the report has been taken, and the report waits
// until the materializer has stopped claiming, whatever order the loops run in.

import { describe, expect, it } from 'vitest';
import type { Schedule } from '../../src/domain/schedule.js';
import type { Store } from '../../src/store/store.js';
import { sqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { harness } from '../support/harness.js';
import { settle } from '../support/test-clock.js';

/** A store whose schedule claims come back empty (as if every due row were locked) until the report ran. */
function lockedUntilReported(inner: Store): Store {
  let reported = false;
  let skipped = 0;
  let hidden: () => void = () => {};
  const firstHidden = new Promise<void>((r) => (hidden = r));
  return new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop === 'claimDueSchedules')
        return async (...args: Parameters<Store['claimDueSchedules']>): Promise<Schedule[]> => {
          if (reported) return target.claimDueSchedules(...args);
          skipped++;
          hidden();
          return [];
        };
      if (prop === 'takeOverdueSchedules')
        return async (...args: Parameters<Store['takeOverdueSchedules']>): Promise<Schedule[]> => {
          // The claims skipped the row first, and the materializer went to sleep (no claim for a while).
          await firstHidden;
          for (let seen = -1; seen !== skipped;) {
            seen = skipped;
            await settle(20);
          }
          const taken = await target.takeOverdueSchedules(...args);
          if (taken.length > 0) reported = true;
          return taken;
        };
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

describe('an overdue schedule skipped by a claim while its report held it', () => {
  it('runs once the report is taken, without waiting for a full scan', async () => {
    const h = await harness({
      store: lockedUntilReported(sqliteStore({ path: ':memory:' })),
      clockSync: { enabled: false },
    });
    try {
      h.s.handle('once', () => {});
      const done = h.waitFor('run:succeeded');
      await h.s.put({ key: 'emitter', spec: '@at 1647067401', target: { handler: 'once' } });
      let ran = false;
      void done.then(() => (ran = true));
      // The test clock never moves: only the report's hook can bring the materializer back below its mark.
      for (let i = 0; i < 500 && !ran; i++) await settle(2);
      expect(ran).toBe(true);
      expect((await done).run.scheduledFor).toBe(1_647_067_401_000);
      expect(h.of('schedule:notFired').map((n) => n.scheduleKey)).toEqual(['emitter']);
    } finally {
      await h.close();
    }
  });
});
