// Overlap policies: what happens to a recurring schedule's next run while the previous one still runs.

import { afterEach, describe, expect, it } from 'vitest';
import type { OverlapPolicy } from '../../src/domain/policies.js';
import { harness, deferred, type Harness } from '../support/harness.js';

let h: Harness;
afterEach(async () => h?.close());

async function slowSchedule(
  overlap: OverlapPolicy,
): Promise<{ gates: { resolve: () => void }[]; starts: number[] }> {
  h = await harness();
  const gates: { resolve: () => void }[] = [];
  const starts: number[] = [];
  h.s.handle('slow', (ctx) => {
    starts.push(ctx.run.scheduledFor);
    const d = deferred();
    gates.push(d);
    return d.promise;
  });
  await h.s.put({
    key: 'slow',
    spec: '@every 1m',
    target: { handler: 'slow' },
    policies: { overlap, timeoutMs: 3_600_000 },
  });
  return { gates, starts };
}

describe('overlap', () => {
  it('allow: runs start while the previous one runs', async () => {
    const { starts } = await slowSchedule('allow');
    await h.clock.advance(3 * 60_000);
    expect(starts).toHaveLength(3);
  });

  it('skip: occurrences due while one runs are skipped with reason overlap', async () => {
    const { gates, starts } = await slowSchedule('skip');
    await h.clock.advance(3 * 60_000);
    expect(starts).toHaveLength(1);
    expect(h.of('run:skipped').map((e) => e.run.reason)).toEqual(['overlap', 'overlap']);
    gates[0]!.resolve();
    await h.clock.advance(60_000);
    expect(starts).toHaveLength(2);
  });

  it('bufferOne: one waiting run starts when the previous ends, the others are skipped', async () => {
    const { gates, starts } = await slowSchedule('bufferOne');
    await h.clock.advance(3 * 60_000 + 1000);
    expect(starts).toHaveLength(1);
    const next = h.waitFor('run:started');
    gates[0]!.resolve();
    const started = await next;
    expect(started.run.scheduledFor).toBe(starts[0]! + 60_000);
    expect(h.of('run:skipped')).toHaveLength(1);
  });

  it('bufferAll: waiting runs go one at a time, in order', async () => {
    const { gates, starts } = await slowSchedule('bufferAll');
    await h.clock.advance(3 * 60_000 + 1000);
    expect(starts).toHaveLength(1);
    for (let i = 1; i <= 2; i++) {
      const next = h.waitFor('run:started');
      gates[i - 1]!.resolve();
      await next;
      expect(starts).toHaveLength(i + 1);
    }
    expect(starts[2]! - starts[1]!).toBe(60_000);
    expect(h.of('run:skipped')).toHaveLength(0);
  });

  it('cancelPrevious: the running run is cancelled and its worker aborts', async () => {
    const { starts } = await slowSchedule('cancelPrevious');
    await h.clock.advance(60_000);
    expect(starts).toHaveLength(1);
    const lost = h.waitFor('lease:lost');
    await h.clock.advance(60_000);
    expect(starts).toHaveLength(2);
    expect(h.of('run:cancelled').map((e) => e.run.reason)).toEqual(['overlap']);
    await h.clock.advance(20_000); // next heartbeat notices the lost lease
    expect((await lost).runId).toBe(h.of('run:cancelled')[0]!.run.id);
  });
});
