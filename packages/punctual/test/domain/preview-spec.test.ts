// previewSpec: the occurrences carry the notes of the one search that computes them, `next` stays the bare
// instants, and `explain` lists the candidates dropped on the way (DST, EXDATE, startAt, endAt).
import { describe, expect, it } from 'vitest';
import { previewSpec } from '../../src/domain/timing/preview-spec.js';

const at = (iso: string): number => Date.parse(iso);
const iso = (ms: number): string => new Date(ms).toISOString();

describe('previewSpec annotations', () => {
  it('a cron job moved out of the Berlin gap says so; next[] is the same instants', () => {
    const p = previewSpec('30 2 * * *', { tz: 'Europe/Berlin', from: at('2026-03-28T12:00:00Z'), count: 2 });
    expect(p.next.map(iso)).toEqual(['2026-03-29T01:00:00.000Z', '2026-03-30T00:30:00.000Z']);
    expect(p.occurrences).toEqual([
      {
        at: at('2026-03-29T01:00:00Z'),
        notes: [{ kind: 'dstShifted', asked: '2026-03-29T02:30:00', used: '2026-03-29T03:00:00' }],
      },
      { at: at('2026-03-30T00:30:00Z'), notes: [] },
    ]);
    expect(p.dropped).toBeUndefined();
    expect(p.dst).toEqual({ gap: 'shift', repeat: 'first' });
  });

  it('repeat both in New York lists the second pass, marked pass 2', () => {
    const p = previewSpec('30 1 * * *', {
      tz: 'America/New_York',
      from: at('2026-10-31T12:00:00Z'),
      count: 3,
      dst: { repeat: 'both' },
    });
    expect(p.occurrences.map((o) => [iso(o.at), o.notes])).toEqual([
      ['2026-11-01T05:30:00.000Z', [{ kind: 'dstRepeat', pass: 1 }]],
      ['2026-11-01T06:30:00.000Z', [{ kind: 'dstRepeat', pass: 2 }]],
      ['2026-11-02T06:30:00.000Z', []],
    ]);
  });
});

describe('previewSpec explain', () => {
  it('lists DST drops, EXDATE, before startAt and after endAt, in order', () => {
    const p = previewSpec('0 9 * * *', {
      tz: 'Europe/Berlin',
      from: at('2026-12-20T00:00:00Z'),
      count: 10,
      startAt: at('2026-12-22T00:00:00Z'),
      endAt: at('2026-12-23T12:00:00Z'),
      explain: true,
    });
    expect(p.next.map(iso)).toEqual(['2026-12-22T08:00:00.000Z', '2026-12-23T08:00:00.000Z']);
    expect(p.dropped?.map((d) => [iso(d.at), d.reason])).toEqual([
      ['2026-12-20T08:00:00.000Z', 'beforeStart'],
      ['2026-12-21T08:00:00.000Z', 'beforeStart'],
      ['2026-12-24T08:00:00.000Z', 'afterEnd'],
    ]);
  });

  it('an RRULE with EXDATE and the default gap skip', () => {
    const p = previewSpec(
      'DTSTART;TZID=Europe/Berlin:20260327T023000\nRRULE:FREQ=DAILY\nEXDATE;TZID=Europe/Berlin:20260328T023000',
      { from: at('2026-03-27T00:00:00Z'), count: 2, explain: true },
    );
    expect(p.next.map(iso)).toEqual(['2026-03-27T01:30:00.000Z', '2026-03-30T00:30:00.000Z']);
    expect(p.dropped).toEqual([
      { at: at('2026-03-28T01:30:00Z'), reason: 'exdate' },
      { at: at('2026-03-29T01:00:00Z'), reason: 'dstGap' },
    ]);
  });

  it('the second pass a repeat "first" leaves out', () => {
    const p = previewSpec('FREQ=DAILY;BYHOUR=2;BYMINUTE=30', {
      tz: 'Europe/Berlin',
      from: at('2026-10-24T12:00:00Z'),
      count: 2,
      explain: true,
    });
    expect(p.dropped).toEqual([{ at: at('2026-10-25T01:30:00Z'), reason: 'dstRepeat' }]);
  });
});
