// Per-occurrence overrides and the timed pause, through the engine with the injected clock: a skipped
// occurrence is recorded skipped (override), a moved one keeps its scheduledFor and runs at the new instant,
// a payload override reaches the handler; bad input changes nothing; an update that removes an occurrence
// drops its override and says so; a timed pause resumes by itself and records the occurrences in between;
// the housekeeper prunes the overrides of occurrences written longer ago than the history retention.

import { afterEach, describe, expect, it } from 'vitest';
import { PunctualError } from '../../src/errors.js';
import { at, harness, iso, type Harness } from '../support/harness.js';

let h: Harness;
afterEach(async () => h?.close());

const HOUR = 3_600_000;

async function code(p: Promise<unknown>): Promise<[string, Record<string, unknown>]> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(PunctualError);
  return [(e as PunctualError).code, (e as PunctualError).details ?? {}];
}

describe('occurrence overrides', () => {
  it('are pruned by the housekeeper once written and older than the retention, the others kept', async () => {
    h = await harness({ start: '2026-01-05T00:00:30Z', retention: { maxAgeMs: 2 * HOUR } });
    h.s.handle('t', () => undefined);
    await h.s.put({ key: 'o', spec: '0 * * * *', target: { handler: 't' } });
    await h.s.overrideOccurrence('o', '2026-01-05T01:00:00Z', { kind: 'skip' });
    await h.s.overrideOccurrence('o', '2026-01-05T02:00:00Z', { kind: 'payload', payload: 'x' });
    await h.s.overrideOccurrence('o', '2026-01-05T09:00:00Z', { kind: 'skip' });
    const kept = async () =>
      (
        await h.s.store.listOccurrenceOverrides('default', (await h.s.require('o')).id, {
          from: 0,
          limit: 10,
        })
      ).map((o) => iso(o.instant));
    await h.clock.advance(3 * HOUR + 30_000); // 03:01: 01:00 is older than 2 h, 02:00 is not yet
    await h.quiesce();
    expect(await kept()).toEqual(['2026-01-05T02:00:00.000Z', '2026-01-05T09:00:00.000Z']);
    await h.clock.advance(HOUR);
    await h.quiesce();
    expect(await kept()).toEqual(['2026-01-05T09:00:00.000Z']);
  });

  it('skips, moves and changes the payload of single occurrences', async () => {
    h = await harness({ start: '2026-01-05T00:00:30Z' });
    const fired: [string, string, unknown][] = [];
    h.s.handle('t', (ctx) => {
      fired.push([iso(ctx.run.scheduledFor), iso(h.clock.now()), ctx.payload]);
    });
    await h.s.put({ key: 'o', spec: '0 * * * *', target: { handler: 't' }, payload: 'plain' });
    await h.s.overrideOccurrence('o', '2026-01-05T01:00:00Z', { kind: 'skip', note: 'holiday' });
    await h.s.overrideOccurrence('o', '2026-01-05T02:00:00Z', {
      kind: 'move',
      moveTo: '2026-01-05T02:30:00Z',
    });
    await h.s.overrideOccurrence('o', '2026-01-05T03:00:00Z', { kind: 'payload', payload: 'special' });
    const list = await h.s.occurrences('o', { count: 4 });
    expect(list.occurrences.map((x) => [iso(x.scheduledFor), x.at === null ? null : iso(x.at)])).toEqual([
      ['2026-01-05T01:00:00.000Z', null],
      ['2026-01-05T02:00:00.000Z', '2026-01-05T02:30:00.000Z'],
      ['2026-01-05T03:00:00.000Z', '2026-01-05T03:00:00.000Z'],
      ['2026-01-05T04:00:00.000Z', '2026-01-05T04:00:00.000Z'],
    ]);
    await h.clock.advance(4 * HOUR);
    expect(fired).toEqual([
      ['2026-01-05T02:00:00.000Z', '2026-01-05T02:30:00.000Z', 'plain'],
      ['2026-01-05T03:00:00.000Z', '2026-01-05T03:00:00.000Z', 'special'],
      ['2026-01-05T04:00:00.000Z', '2026-01-05T04:00:00.000Z', 'plain'],
    ]);
    const skipped = h.of('run:skipped').map((e) => [iso(e.run.scheduledFor), e.run.reason, e.run.details]);
    expect(skipped).toEqual([
      ['2026-01-05T01:00:00.000Z', 'override', { override: 'skip', note: 'holiday' }],
    ]);
    const moved = (await h.s.listRuns({ scheduleKey: 'o', state: 'succeeded' })).items.find(
      (r) => r.scheduledFor === at('2026-01-05T02:00:00Z'),
    );
    // The run keeps the override in its details once settled, so history says why it ran at 02:30.
    expect(moved?.details).toMatchObject({ override: 'move', from: at('2026-01-05T02:00:00Z') });
  });

  it('changes a run already written, and refuses once the run started', async () => {
    h = await harness({ start: '2026-01-05T00:59:55Z' });
    const started: string[] = [];
    h.s.handle('t', () => {
      started.push(iso(h.clock.now()));
    });
    await h.s.put({ key: 'o', spec: '0 * * * *', target: { handler: 't' } });
    await h.clock.advance(1);
    expect(h.of('run:scheduled')).toHaveLength(1); // the 01:00 run is written ahead (look-ahead)
    const res = await h.s.overrideOccurrence('o', at('2026-01-05T01:00:00Z'), {
      kind: 'move',
      moveTo: '2026-01-05T01:10:00Z',
    });
    expect(res.run).toMatchObject({ state: 'scheduled', dueAt: at('2026-01-05T01:10:00Z') });
    await h.clock.advance(11 * 60_000);
    expect(started).toEqual(['2026-01-05T01:10:00.000Z']);
    const [c, details] = await code(h.s.overrideOccurrence('o', '2026-01-05T01:00:00Z', { kind: 'skip' }));
    expect(c).toBe('OCCURRENCE_STARTED');
    expect(details).toMatchObject({ state: 'succeeded' });
  });

  it('refuses bad input with its own code and changes nothing', async () => {
    h = await harness({ start: '2026-01-05T00:00:30Z' });
    h.s.handle('t', () => {});
    await h.s.put({ key: 'o', spec: '0 * * * *', target: { handler: 't' } });
    expect(await code(h.s.overrideOccurrence('o', '2026-01-05T01:30:00Z', { kind: 'skip' }))).toEqual([
      'OCCURRENCE_UNKNOWN',
      expect.objectContaining({ field: 'instant' }),
    ]);
    expect((await code(h.s.overrideOccurrence('o', '2028-01-05T01:00:00Z', { kind: 'skip' })))[0]).toBe(
      'OCCURRENCE_UNKNOWN',
    );
    const bad = [
      { kind: 'later' },
      { kind: 'move' },
      { kind: 'move', moveTo: '2026-01-04T00:00:00Z' },
      { kind: 'payload' },
      { kind: 'skip', payload: 1 },
    ];
    for (const input of bad) {
      const [c] = await code(h.s.overrideOccurrence('o', '2026-01-05T01:00:00Z', input as never));
      expect(c).toBe('OVERRIDE_INVALID');
    }
    expect((await code(h.s.removeOverride('o', '2026-01-05T01:00:00Z')))[0]).toBe('OVERRIDE_NOT_FOUND');
    expect((await code(h.s.overrideOccurrence('nope', '2026-01-05T01:00:00Z', { kind: 'skip' })))[0]).toBe(
      'SCHEDULE_NOT_FOUND',
    );
    expect((await h.s.occurrences('o')).occurrences.every((x) => x.override === null)).toBe(true);
  });

  it('keeps overrides across an update that keeps their occurrences and drops (and reports) the others', async () => {
    h = await harness({ start: '2026-01-05T00:00:30Z' });
    h.s.handle('t', () => {});
    await h.s.put({ key: 'o', spec: '0 * * * *', target: { handler: 't' } });
    await h.s.overrideOccurrence('o', '2026-01-05T02:00:00Z', { kind: 'skip' });
    await h.s.overrideOccurrence('o', '2026-01-05T03:00:00Z', { kind: 'skip' });
    const dry = await h.s.dryRun({ key: 'o', spec: '0 */2 * * *', target: { handler: 't' } });
    expect(dry.droppedOverrides.map((o) => iso(o.instant))).toEqual(['2026-01-05T03:00:00.000Z']);
    // A change of another field keeps both.
    const kept = await h.s.put({ key: 'o', spec: '0 * * * *', target: { handler: 't' }, payload: 1 });
    expect(kept.droppedOverrides).toEqual([]);
    const res = await h.s.put({ key: 'o', spec: '0 */2 * * *', target: { handler: 't' } });
    expect(res.droppedOverrides.map((o) => iso(o.instant))).toEqual(['2026-01-05T03:00:00.000Z']);
    const left = (await h.s.occurrences('o', { count: 2 })).occurrences;
    expect(left.map((x) => [iso(x.scheduledFor), x.override?.kind ?? null])).toEqual([
      ['2026-01-05T02:00:00.000Z', 'skip'],
      ['2026-01-05T04:00:00.000Z', null],
    ]);
  });

  it('undoes a skip of a run already written: the occurrence runs after all', async () => {
    h = await harness({ start: '2026-01-05T00:59:55Z' });
    const fired: string[] = [];
    h.s.handle('t', (ctx) => {
      fired.push(iso(ctx.run.scheduledFor));
    });
    await h.s.put({ key: 'o', spec: '0 * * * *', target: { handler: 't' } });
    await h.clock.advance(1);
    expect(h.of('run:scheduled')).toHaveLength(1);
    await h.s.overrideOccurrence('o', '2026-01-05T01:00:00Z', { kind: 'skip' });
    expect(h.of('run:skipped').map((e) => e.run.reason)).toEqual(['override']);
    await h.s.removeOverride('o', '2026-01-05T01:00:00Z');
    await h.clock.advance(2 * 60_000);
    expect(fired).toEqual(['2026-01-05T01:00:00.000Z']);
  });
});

describe('timed pause', () => {
  it('resumes by itself at until; the occurrences in between are skipped (paused)', async () => {
    h = await harness({ start: '2026-01-05T00:00:30Z' });
    const fired: string[] = [];
    h.s.handle('t', (ctx) => {
      fired.push(iso(ctx.run.scheduledFor));
    });
    await h.s.put({ key: 'p', spec: '0 * * * *', target: { handler: 't' } });
    const resumed: string[] = [];
    h.s.on('schedule:resumed', () => resumed.push(iso(h.clock.now())));
    const paused = await h.s.pause('p', { until: '2026-01-05T02:30:00Z', note: 'deploy' });
    expect(paused).toMatchObject({ state: 'paused', pausedUntil: at('2026-01-05T02:30:00Z') });
    await h.clock.advance(2 * HOUR + 29 * 60_000);
    expect((await h.s.get('p'))?.state).toBe('paused');
    await h.clock.advance(60_000);
    expect(resumed).toEqual(['2026-01-05T02:30:00.000Z']);
    expect(await h.s.get('p')).toMatchObject({ state: 'active', pausedUntil: null });
    expect(h.of('run:skipped').map((e) => [iso(e.run.scheduledFor), e.run.reason])).toEqual([
      ['2026-01-05T01:00:00.000Z', 'paused'],
      ['2026-01-05T02:00:00.000Z', 'paused'],
    ]);
    await h.clock.advance(HOUR);
    expect(fired).toEqual(['2026-01-05T03:00:00.000Z']);
  });

  it('refuses an until in the past or malformed, and leaves the schedule as it was', async () => {
    h = await harness({ start: '2026-01-05T00:00:30Z' });
    h.s.handle('t', () => {});
    await h.s.put({ key: 'p', spec: '0 * * * *', target: { handler: 't' } });
    for (const until of ['2026-01-05T00:00:00Z', 'tomorrow', at('2026-01-05T00:00:30Z')]) {
      const [c, details] = await code(h.s.pause('p', { until }));
      expect(c).toBe('PAUSE_UNTIL_INVALID');
      expect(details).toMatchObject({ field: 'until' });
    }
    expect((await h.s.get('p'))?.state).toBe('active');
  });
});
