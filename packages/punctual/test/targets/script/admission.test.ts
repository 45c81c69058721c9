// Fair admission to the sandbox through the engine: one tenant's flood of endless scripts waits in the worker
// behind itself (no hand-back to the store, no `released` attempt rows), and another tenant's run is taken at
// the next free sandbox thread. Scripts stop on their own wall-clock limit; the engine runs on a TestClock.

import { afterEach, describe, expect, it } from 'vitest';
import type { Run } from '../../../src/domain/run.js';
import { sqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { scriptTarget } from '../../../src/targets/script/script-target.js';
import { harness, type Harness } from '../../support/harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const FLOOD = 6;
const NEVER = '@at 2099-01-01T00:00:00Z';

describe('script admission through the engine', () => {
  it("a flooding tenant's runs wait in the engine; another tenant's run starts at the next free thread", async () => {
    const store = sqliteStore({ path: ':memory:' });
    const driver = await scriptTarget({ kv: store, poolSize: 2 });
    h = await harness({ store, targets: [driver], concurrency: 10 });
    const ends: string[] = [];
    const record = ({ run }: { run: Run }) => ends.push(run.tenantId);
    h.s.on('run:dead', record);
    h.s.on('run:succeeded', record);
    const flood = h.s.tenant('flood');
    const other = h.s.tenant('other');
    await flood.put({
      key: 'endless',
      spec: NEVER,
      target: { script: { source: 'export default () => { for (;;) {} }', timeoutMs: 1000 } },
      policies: { retry: { maxAttempts: 1 }, timeoutMs: 86_400_000 },
    });
    await other.put({
      key: 'trivial',
      spec: NEVER,
      target: { script: { source: 'export default () => "b"' } },
      policies: { timeoutMs: 86_400_000 },
    });
    const floodRuns: Run[] = [];
    for (let i = 0; i < FLOOD; i++) floodRuns.push(await flood.trigger('endless'));
    const b = await other.trigger('trivial');
    const all = h.waitFor('run:succeeded', (e) => e.run.id === b.id);
    await h.drive(
      (async () => {
        await all;
        while (ends.length < FLOOD + 1) await new Promise<void>((r) => setImmediate(r));
      })(),
      50,
    );
    // Two threads run two flood scripts; at the first free thread the other tenant goes first.
    expect(ends.indexOf('other')).toBeLessThanOrEqual(2);
    expect(h.of('run:released')).toEqual([]);
    for (const run of floodRuns) {
      const detail = await flood.getRun(run.id);
      expect(detail!.run.state).toBe('dead');
      expect(detail!.attempts.map((a) => a.outcome)).toEqual(['failed']);
    }
  });
});
