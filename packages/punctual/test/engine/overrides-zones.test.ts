// Per-occurrence overrides and the timed pause in zones other than UTC, through the engine with the injected
// clock: in New York, the two passes of the repeated hour of the autumn change (repeat "both") are two
// occurrences, one skipped and one moved by their own instants, the next day's given another payload; in
// Kolkata (+05:30), a timed pause records the occurrences it covers as skipped (paused) and the schedule
// goes on at the next 09:00 local. Fixed instants; the host's zone plays no part (npm run test:tz).

import { afterEach, describe, expect, it } from 'vitest';
import { at, harness, iso, type Harness } from '../support/harness.js';

let h: Harness | undefined;
afterEach(async () => h?.close());

const HOUR = 3_600_000;
// Few engine timers per simulated hour: the tests move the clock by days.
const QUIET = { reapIntervalMs: HOUR, maxSleepMs: HOUR, clockSync: { intervalMs: HOUR } };

describe('overrides and the timed pause in several zones', () => {
  it('America/New_York: each pass of the repeated 01:30 is its own occurrence to skip or move', async () => {
    h = await harness({ start: '2026-10-31T12:00:00Z', ...QUIET });
    const fired: [string, string, unknown][] = [];
    h.s.handle('t', (ctx) => {
      fired.push([iso(ctx.run.scheduledFor), iso(h!.clock.now()), ctx.payload]);
    });
    await h.s.put({
      key: 'ny',
      spec: '30 1 * * *',
      tz: 'America/New_York',
      dst: { repeat: 'both' },
      payload: 'plain',
      target: { handler: 't' },
    });
    // 1 November 2026, 01:30 EDT (05:30Z) and 01:30 EST (06:30Z); 2 November 01:30 EST (06:30Z).
    const listed = (await h.s.occurrences('ny', { count: 3 })).occurrences.map((o) => iso(o.scheduledFor));
    expect(listed).toEqual([
      '2026-11-01T05:30:00.000Z',
      '2026-11-01T06:30:00.000Z',
      '2026-11-02T06:30:00.000Z',
    ]);
    await h.s.overrideOccurrence('ny', '2026-11-01T01:30:00-04:00', {
      kind: 'skip',
      note: 'first pass only',
    });
    await h.s.overrideOccurrence('ny', '2026-11-01T01:30:00-05:00', {
      kind: 'move',
      moveTo: '2026-11-01T03:00:00-05:00',
    });
    await h.s.overrideOccurrence('ny', '2026-11-02T06:30:00Z', { kind: 'payload', payload: 'special' });
    await h.clock.set('2026-11-02T07:00:00Z');
    await h.quiesce();
    expect(fired).toEqual([
      ['2026-11-01T06:30:00.000Z', '2026-11-01T08:00:00.000Z', 'plain'],
      ['2026-11-02T06:30:00.000Z', '2026-11-02T06:30:00.000Z', 'special'],
    ]);
    expect(h.of('run:skipped').map((e) => [iso(e.run.scheduledFor), e.run.reason])).toEqual([
      ['2026-11-01T05:30:00.000Z', 'override'],
    ]);
  });

  it('Asia/Kolkata: a timed pause skips the 09:00 runs it covers (paused) and resumes by itself', async () => {
    h = await harness({ start: '2026-01-05T00:00:00Z', ...QUIET });
    const fired: string[] = [];
    h.s.handle('t', (ctx) => {
      fired.push(iso(ctx.run.scheduledFor));
    });
    await h.s.put({ key: 'in', spec: '0 9 * * *', tz: 'Asia/Kolkata', target: { handler: 't' } });
    // Until 09:30 IST on the 7th: the 09:00 IST (03:30Z) runs of the 5th, 6th and 7th fall in the pause.
    const paused = await h.s.pause('in', { until: '2026-01-07T09:30:00+05:30', note: 'audit' });
    expect(paused).toMatchObject({ state: 'paused', pausedUntil: at('2026-01-07T04:00:00Z') });
    await h.clock.set('2026-01-07T03:59:00Z');
    expect((await h.s.get('in'))?.state).toBe('paused');
    await h.clock.set('2026-01-08T04:00:00Z');
    await h.quiesce();
    expect(await h.s.get('in')).toMatchObject({ state: 'active', pausedUntil: null });
    expect(h.of('run:skipped').map((e) => [iso(e.run.scheduledFor), e.run.reason])).toEqual([
      ['2026-01-05T03:30:00.000Z', 'paused'],
      ['2026-01-06T03:30:00.000Z', 'paused'],
      ['2026-01-07T03:30:00.000Z', 'paused'],
    ]);
    expect(fired).toEqual(['2026-01-08T03:30:00.000Z']);
  });
});
