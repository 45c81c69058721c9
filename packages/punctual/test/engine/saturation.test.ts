// Back-pressure from a saturated target: its runs wait in the worker (no attempt used, nothing written, no
// slot held) instead of holding worker slots or looping through the store, so other targets' runs keep
// starting; a waiting run starts once its target has room.

import { afterEach, describe, expect, it } from 'vitest';
import type { TargetDriver } from '../../src/targets/target.js';
import { harness, type Harness } from '../support/harness.js';

let h: Harness;
afterEach(async () => h?.close());

describe('a saturated target', () => {
  it('does not hold worker slots: its runs wait, other runs start, and it resumes when it has room', async () => {
    let saturated = true;
    const delivered: string[] = [];
    const slow: TargetDriver = {
      kind: 'webhook',
      saturated: () => saturated,
      deliver: async (d) => {
        delivered.push(d.run.scheduleKey);
        return { type: 'ok' };
      },
    };
    h = await harness({ concurrency: 1, targets: [slow] });
    h.s.handle('quick', () => 'done');
    await h.s.put({ key: 'busy', spec: '@in 1s', target: { webhook: { url: 'http://127.0.0.1:9/x' } } });
    await h.s.put({ key: 'other', spec: '@in 1s', target: { handler: 'quick' } });
    const other = h.waitFor('run:succeeded', (e) => e.run.scheduleKey === 'other');
    await h.clock.advance(1000);
    await other;
    expect(delivered).toEqual([]);
    // Still saturated a while later: the run waits in the worker, it is never handed back to the store.
    await h.clock.advance(1000);
    expect(delivered).toEqual([]);
    expect(h.of('run:released')).toEqual([]);
    saturated = false;
    const done = h.waitFor('run:succeeded', (e) => e.run.scheduleKey === 'busy');
    await h.clock.advance(250);
    const busy = await done;
    expect(delivered).toEqual(['busy']);
    expect(busy.run.attempt).toBe(1);
    const detail = await h.s.getRun(busy.run.id);
    expect(detail!.attempts.map((a) => a.outcome)).toEqual(['succeeded']);
  });

  it('is asked per run: a run it admits starts while an earlier run of the same target waits', async () => {
    const delivered: string[] = [];
    const perTenant: TargetDriver = {
      kind: 'webhook',
      saturated: (run) => run.tenantId === 'flood',
      deliver: async (d) => {
        delivered.push(d.run.tenantId);
        return { type: 'ok' };
      },
    };
    h = await harness({ concurrency: 1, targets: [perTenant] });
    const target = { webhook: { url: 'http://127.0.0.1:9/x' } };
    await h.s.tenant('flood').put({ key: 'a', spec: '@in 1s', target });
    await h.s.tenant('other').put({ key: 'b', spec: '@in 2s', target });
    await h.clock.advance(1000);
    const other = h.waitFor('run:succeeded', (e) => e.run.tenantId === 'other');
    await h.clock.advance(1000);
    await other;
    expect(delivered).toEqual(['other']);
    expect(h.of('run:released')).toEqual([]);
  });
});
