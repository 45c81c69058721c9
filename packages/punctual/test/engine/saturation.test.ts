// Back-pressure from a saturated target: its runs are handed back for a moment (no attempt used) instead of
// holding worker slots, so other targets' runs keep starting.

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
    await h.clock.advance(1000);
    await h.quiesce();
    expect(h.of('run:succeeded').map((e) => e.run.scheduleKey)).toEqual(['other']);
    expect(delivered).toEqual([]);
    const released = h.of('run:released');
    expect(released.length).toBeGreaterThan(0);
    expect(released.every((e) => e.run.scheduleKey === 'busy' && e.run.attempt === 0)).toBe(true);
    saturated = false;
    await h.clock.advance(1000);
    await h.quiesce();
    expect(delivered).toEqual(['busy']);
    const busy = h.of('run:succeeded').find((e) => e.run.scheduleKey === 'busy')!;
    expect(busy.run.attempt).toBe(1);
  });
});
