// Re-running failed runs through the library: a dead run runs again, keeping its scheduledFor and occurrence
// id (new attempts of the same run), with the handler as it is now; the bulk form picks the runs of a range by
// state; runs not final yet are refused with RUN_NOT_RERUNNABLE and nothing changes.

import { afterEach, describe, expect, it } from 'vitest';
import { fail } from '../../src/targets/outcomes.js';
import { at, harness, iso, type Harness } from '../support/harness.js';

let h: Harness;
afterEach(async () => h?.close());

const target = { handler: 't' };
const policies = { retry: { maxAttempts: 1 } };

describe('reruns', () => {
  it('runs a dead run again after the bug is fixed, as the same occurrence', async () => {
    h = await harness({ start: '2026-01-05T00:00:00Z' });
    let broken = true;
    const seen: [string, string][] = [];
    h.s.handle('t', (ctx) => {
      seen.push([iso(ctx.run.scheduledFor), ctx.run.occurrenceId]);
      if (broken) return fail('bug');
    });
    await h.s.put({ key: 'r', spec: '@at 2026-01-05T00:01:00Z', target, policies });
    await h.clock.advance(61_000);
    await h.quiesce();
    const [dead] = h.of('run:dead').map((e) => e.run);
    expect(dead).toMatchObject({ state: 'dead', attempt: 1 });

    broken = false;
    const again = await h.s.rerun(dead!.id);
    expect(again).toMatchObject({
      id: dead!.id,
      state: 'scheduled',
      reason: 'rerun',
      scheduledFor: at('2026-01-05T00:01:00Z'),
      dueAt: h.clock.now(),
      maxAttempts: 2,
    });
    expect(h.of('run:scheduled').at(-1)?.run.id).toBe(dead!.id);
    await h.quiesce();
    const got = await h.s.getRun(dead!.id);
    expect(got?.run.state).toBe('succeeded');
    expect(got?.attempts.map((a) => a.outcome)).toEqual(['failed', 'succeeded']);
    expect(seen).toEqual([
      ['2026-01-05T00:01:00.000Z', dead!.occurrenceId],
      ['2026-01-05T00:01:00.000Z', dead!.occurrenceId],
    ]);
    expect((await h.s.get('r'))?.firedCount).toBe(2);
  });

  it('refuses a run that is not final with RUN_NOT_RERUNNABLE, and an unknown one with RUN_NOT_FOUND', async () => {
    h = await harness({ start: '2026-01-05T00:00:00Z' });
    h.s.handle('t', () => {});
    await h.s.put({ key: 'r', spec: '@daily', target });
    await h.quiesce();
    await h.clock.advance(86_400_000 - 10_000);
    await h.quiesce();
    const pending = (await h.s.listRuns({ scheduleKey: 'r', state: 'scheduled' })).items[0]!;
    await expect(h.s.rerun(pending.id)).rejects.toMatchObject({
      code: 'RUN_NOT_RERUNNABLE',
      details: { id: pending.id, state: 'scheduled', why: 'notFinal' },
    });
    expect((await h.s.getRun(pending.id))?.run).toEqual(pending);
    await expect(h.s.rerun('424242')).rejects.toMatchObject({ code: 'RUN_NOT_FOUND' });
  });

  it('reruns the dead runs of a range, leaving the others, and checks the range and the states', async () => {
    h = await harness({ start: '2026-01-05T00:00:00Z' });
    let n = 0;
    h.s.handle('t', () => {
      n += 1;
      if (n % 2 === 0) return fail('even');
    });
    await h.s.put({ key: 'm', spec: '@every 1m', target, policies });
    for (let i = 0; i < 4; i++) {
      await h.clock.advance(60_000);
      await h.quiesce();
    }
    const dead = (await h.s.listRuns({ scheduleKey: 'm', state: 'dead' })).items;
    expect(dead.map((r) => iso(r.scheduledFor)).sort()).toEqual([
      '2026-01-05T00:02:00.000Z',
      '2026-01-05T00:04:00.000Z',
    ]);
    const res = await h.s.rerunRange('m', {
      from: '2026-01-05T00:00:00Z',
      to: '2026-01-05T00:03:00Z',
    });
    expect(res.refused).toEqual([]);
    expect(res.runs.map((r) => [iso(r.scheduledFor), r.reason])).toEqual([
      ['2026-01-05T00:02:00.000Z', 'rerun'],
    ]);
    await expect(
      h.s.rerunRange('m', { from: '2026-01-05T00:00:00Z', to: '2026-01-05T00:03:00Z', states: ['running'] }),
    ).rejects.toMatchObject({ code: 'SCHEDULE_INVALID', details: { field: 'states' } });
    await expect(
      h.s.rerunRange('m', { from: '2026-01-05T00:03:00Z', to: '2026-01-05T00:03:00Z' }),
    ).rejects.toMatchObject({ code: 'SCHEDULE_INVALID', details: { field: 'to' } });
    await expect(h.s.rerunRange('nope', { from: 0, to: 1 })).rejects.toMatchObject({
      code: 'SCHEDULE_NOT_FOUND',
    });
  });
});
