// compileSpec and previewSpec: dispatch by form, zone validation, startAt/endAt bounds, never-fires for each
// kind, `@at` / `@in` resolution and `@every` anchoring (restart-stable).
import { describe, expect, it } from 'vitest';
import { PunctualError } from '../../src/errors.js';
import { compileSpec, specKindOf } from '../../src/domain/timing/compile-spec.js';
import { previewSpec } from '../../src/domain/timing/preview-spec.js';

const at = (iso: string): number => Date.parse(iso);
const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
const NOW = at('2026-03-01T10:00:00Z');

function thrown(f: () => unknown): PunctualError {
  try {
    f();
  } catch (e) {
    if (e instanceof PunctualError) return e;
    throw e;
  }
  throw new Error('expected a PunctualError');
}

describe('dispatch', () => {
  it.each([
    ['@every 5m', 'every'],
    ['@EVERY 1h', 'every'],
    ['@at 2026-03-08T09:00:00Z', 'at'],
    ['@in 10m', 'at'],
    ['RRULE:FREQ=DAILY', 'rrule'],
    ['DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY', 'rrule'],
    ['FREQ=DAILY', 'rrule'],
    ['@daily', 'cron'],
    ['0 9 * * 1-5', 'cron'],
  ])('%s is %s', (spec, kind) => {
    expect(specKindOf(spec)).toBe(kind);
    expect(compileSpec(spec, { now: NOW }).kind).toBe(kind);
  });

  it('rejects an empty spec', () => {
    expect(thrown(() => compileSpec('  ', { now: NOW })).code).toBe('SPEC_INVALID');
  });
});

describe('time zones', () => {
  it('defaults to UTC', () => {
    expect(compileSpec('0 9 * * *', { now: NOW }).tz).toBe('UTC');
  });

  it.each(['Mars/Base', '', 'GMT+5', '+05:30'])('rejects %j with details.field tz', (tz) => {
    const e = thrown(() => compileSpec('0 9 * * *', { tz, now: NOW }));
    expect(e.code).toBe('TIME_ZONE_UNKNOWN');
    expect(e.details).toMatchObject({ field: 'tz', value: tz });
  });

  it('fixes only the letter case of a zone, keeping aliases as given', () => {
    expect(compileSpec('0 9 * * *', { tz: 'europe/paris', now: NOW }).tz).toBe('Europe/Paris');
    expect(compileSpec('0 9 * * *', { tz: 'Asia/Kolkata', now: NOW }).tz).toBe('Asia/Kolkata');
  });

  it('evaluates cron in the zone', () => {
    const c = compileSpec('0 9 * * *', { tz: 'Asia/Kolkata', now: NOW });
    expect(iso(c.nextAfter(NOW))).toBe('2026-03-02T03:30:00.000Z');
  });
});

describe('bounds: occurrences in [startAt, endAt]', () => {
  it('cron: first at or after startAt, none after endAt (inclusive)', () => {
    const c = compileSpec('0 * * * *', {
      now: NOW,
      startAt: at('2026-03-01T11:00:00Z'),
      endAt: at('2026-03-01T13:00:00Z'),
    });
    const seen: (string | null)[] = [];
    for (let t: number | null = NOW; t !== null;) {
      t = c.nextAfter(t);
      seen.push(iso(t));
    }
    expect(seen).toEqual([
      '2026-03-01T11:00:00.000Z',
      '2026-03-01T12:00:00.000Z',
      '2026-03-01T13:00:00.000Z',
      null,
    ]);
  });

  it.each([
    ['cron', '0 0 * * *', { endAt: at('2026-03-01T12:00:00Z') }],
    ['every', '@every 1h', { endAt: at('2026-03-01T10:30:00Z') }],
    ['rrule', 'DTSTART:20260101T000000Z RRULE:FREQ=WEEKLY', { endAt: at('2026-03-04T23:59:59Z') }],
    ['at after endAt', '@at 2026-03-02T00:00:00Z', { endAt: at('2026-03-01T12:00:00Z') }],
    ['at before startAt', '@at 2026-03-02T00:00:00Z', { startAt: at('2026-03-03T00:00:00Z') }],
    ['in after endAt', '@in 3h', { endAt: at('2026-03-01T12:00:00Z') }],
    ['cron after its last year', '0 0 0 1 1 * 2025', {}],
    ['rrule never', 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30', {}],
  ])('never fires: %s', (_label, spec, bounds) => {
    const e = thrown(() => compileSpec(spec, { now: NOW, ...bounds }));
    expect(e.code).toBe('SPEC_NEVER_FIRES');
    expect(e.details).toMatchObject({ field: 'spec' });
  });

  it('a cron whose next occurrence is after now but before a later startAt is judged from startAt', () => {
    const c = compileSpec('0 0 1 1 *', { now: NOW, startAt: at('2030-06-01T00:00:00Z') });
    expect(iso(c.nextAfter(NOW))).toBe('2031-01-01T00:00:00.000Z');
  });
});

describe('@at and @in', () => {
  it('accepts an instant in the past: due at once, not never-firing', () => {
    const c = compileSpec('@at 2026-01-01T00:00:00Z', { now: NOW });
    expect(c.source).toBe('@at 2026-01-01T00:00:00.000Z');
    expect(iso(c.nextAfter(at('2025-12-31T23:59:59.999Z')))).toBe('2026-01-01T00:00:00.000Z');
    expect(c.nextAfter(at('2026-01-01T00:00:00Z'))).toBeNull();
  });

  it.each([
    ['@at 2026-03-08T09:00:00Z', 'UTC', '2026-03-08T09:00:00.000Z'],
    ['@at 2026-03-08T09:00:00.123+01:00', 'UTC', '2026-03-08T08:00:00.123Z'],
    ['@at 2026-03-08T09:00-0530', 'UTC', '2026-03-08T14:30:00.000Z'],
    ['@at 2026-03-08 09:00', 'Europe/Paris', '2026-03-08T08:00:00.000Z'],
    ['@at 2026-07-08T09:00:00', 'Europe/Paris', '2026-07-08T07:00:00.000Z'],
    ['@at 1772971200', 'UTC', '2026-03-08T12:00:00.000Z'],
    ['@at 1772971200.5', 'UTC', '2026-03-08T12:00:00.500Z'],
    ['@in 90m', 'UTC', '2026-03-01T11:30:00.000Z'],
    ['@in PT0.5S', 'UTC', '2026-03-01T10:00:00.500Z'],
    ['@in 1d', 'America/New_York', '2026-03-02T10:00:00.000Z'],
  ])('%s (%s) -> %s', (spec, tz, expected) => {
    const c = compileSpec(spec, { tz, now: NOW });
    expect(c.source).toBe(`@at ${expected}`);
    expect(iso(c.nextAfter(NOW - 1))).toBe(expected);
  });

  it('@in resolves against now and is stored as @at', () => {
    const c = compileSpec('@in 5m', { now: at('2026-03-01T10:00:00.250Z'), tz: 'Europe/Paris' });
    expect(c.kind).toBe('at');
    expect(c.source).toBe('@at 2026-03-01T10:05:00.250Z');
    expect(c.description).toBe('Once at 2026-03-01 11:05:00.250, Europe/Paris');
    // recompiling the stored source later gives the same instant
    expect(compileSpec(c.source, { now: at('2026-03-01T10:04:00Z') }).nextAfter(0)).toBe(
      at('2026-03-01T10:05:00.250Z'),
    );
  });

  it.each([
    ['@at tomorrow', 'SPEC_INVALID'],
    ['@at 2026-02-30T09:00:00Z', 'SPEC_INVALID'],
    ['@at 2026-03-08', 'SPEC_INVALID'],
    ['@at 2026-03-08T25:00:00Z', 'SPEC_INVALID'],
    ['@at 1969-12-31T00:00:00Z', 'SPEC_INVALID'],
    ['@at', 'SPEC_INVALID'],
    ['@in 5 parsecs', 'DURATION_INVALID'],
    ['@in -5m', 'DURATION_INVALID'],
  ])('rejects %s', (spec, code) => {
    const e = thrown(() => compileSpec(spec, { now: NOW }));
    expect(e.code).toBe(code);
    expect(e.details).toMatchObject({ field: 'spec' });
  });
});

describe('@every', () => {
  const anchor = at('2026-03-01T10:00:07.500Z');

  it('without startAt: anchor is the creation instant, first occurrence anchor + interval', () => {
    const c = compileSpec('@every 15m', { now: anchor, anchor });
    expect(c.description).toBe('Every 15m');
    expect(iso(c.nextAfter(anchor - 1))).toBe('2026-03-01T10:15:07.500Z');
    expect(iso(c.nextAfter(anchor))).toBe('2026-03-01T10:15:07.500Z');
  });

  it('with startAt: the first occurrence is startAt itself', () => {
    const startAt = at('2026-03-02T00:00:00Z');
    const c = compileSpec('@every 1h', { now: NOW, anchor: startAt, startAt });
    expect(iso(c.nextAfter(NOW))).toBe('2026-03-02T00:00:00.000Z');
    expect(iso(c.nextAfter(startAt))).toBe('2026-03-02T01:00:00.000Z');
  });

  it('is restart-stable: the answer depends only on the anchor, not on when it is asked or compiled', () => {
    const first = compileSpec('@every 1h30m', { now: anchor, anchor });
    const later = compileSpec('@every 1h30m', { now: at('2026-04-01T00:00:00Z'), anchor });
    for (const resume of [
      '2026-03-01T10:00:07.500Z',
      '2026-03-01T11:00:00Z',
      '2026-03-01T11:30:07.499Z',
      '2026-03-09T23:59:59Z',
    ]) {
      const t = at(resume);
      const k = Math.floor((t - anchor) / 5_400_000) + 1;
      expect(first.nextAfter(t)).toBe(anchor + k * 5_400_000);
      expect(later.nextAfter(t)).toBe(first.nextAfter(t));
    }
    expect(iso(first.nextAfter(at('2026-03-01T11:30:07.500Z')))).toBe('2026-03-01T13:00:07.500Z');
  });

  it('ignores DST: absolute milliseconds', () => {
    const a = at('2026-03-08T06:00:00Z');
    const c = compileSpec('@every 1h', { tz: 'America/New_York', now: a, anchor: a });
    expect(iso(c.nextAfter(a))).toBe('2026-03-08T07:00:00.000Z');
  });

  it.each([
    ['@every 500ms', 'DURATION_INVALID'],
    ['@every 0s', 'DURATION_INVALID'],
    ['@every 400d', 'DURATION_INVALID'],
    ['@every', 'SPEC_INVALID'],
    ['@every often', 'DURATION_INVALID'],
  ])('rejects %s', (spec, code) => {
    expect(thrown(() => compileSpec(spec, { now: NOW })).code).toBe(code);
  });
});

describe('previewSpec', () => {
  it('lists occurrences from `from` (inclusive)', () => {
    const p = previewSpec('0 * * * *', { from: at('2026-03-01T10:00:00Z'), count: 3, tz: 'UTC' });
    expect(p.next.map(iso)).toEqual([
      '2026-03-01T10:00:00.000Z',
      '2026-03-01T11:00:00.000Z',
      '2026-03-01T12:00:00.000Z',
    ]);
    expect(p).toMatchObject({ kind: 'cron', tz: 'UTC', source: '0 * * * *', description: 'Every hour, UTC' });
  });

  it('stops at endAt and at a one-off', () => {
    const bounded = previewSpec('@every 1h', {
      from: NOW,
      count: 10,
      endAt: at('2026-03-01T12:00:00Z'),
    });
    expect(bounded.next.map(iso)).toEqual(['2026-03-01T11:00:00.000Z', '2026-03-01T12:00:00.000Z']);
    expect(previewSpec('@in 1h', { from: NOW, count: 5 }).next.map(iso)).toEqual([
      '2026-03-01T11:00:00.000Z',
    ]);
  });

  it("follows each form's rule from `from`: cron may list `from` itself, @every starts at from + interval", () => {
    const from = at('2026-03-01T10:00:00Z');
    expect(previewSpec('0 * * * *', { from, count: 1 }).next.map(iso)).toEqual(['2026-03-01T10:00:00.000Z']);
    expect(previewSpec('FREQ=HOURLY', { from, count: 1 }).next.map(iso)).toEqual([
      '2026-03-01T10:00:00.000Z',
    ]);
    expect(previewSpec('@every 1h', { from, count: 2 }).next.map(iso)).toEqual([
      '2026-03-01T11:00:00.000Z',
      '2026-03-01T12:00:00.000Z',
    ]);
  });

  it('uses startAt as the @every anchor', () => {
    const p = previewSpec('@every 1d', { from: NOW, count: 2, startAt: at('2026-03-05T08:00:00Z') });
    expect(p.next.map(iso)).toEqual(['2026-03-05T08:00:00.000Z', '2026-03-06T08:00:00.000Z']);
  });

  it('returns 1000 occurrences at most', () => {
    expect(previewSpec('* * * * * *', { from: NOW, count: 1000 }).next).toHaveLength(1000);
  });

  it.each([0, 1001, 1.5, Number.NaN])('rejects count %s', (count) => {
    const e = thrown(() => previewSpec('@daily', { from: NOW, count }));
    expect(e.code).toBe('SCHEDULE_INVALID');
    expect(e.details).toMatchObject({ field: 'count' });
  });

  it('passes spec errors through', () => {
    expect(thrown(() => previewSpec('0 0 31 2 *', { from: NOW, count: 3 })).code).toBe('SPEC_NEVER_FIRES');
  });
});

describe('messages a user can act on', () => {
  it.each([
    ['@evry 10s', '@evry', '@every'],
    ['@att 2026-03-02T00:00:00Z', '@att', '@at'],
    ['@inn 10m', '@inn', '@in'],
    ['@dayly', '@dayly', '@daily'],
    ['@hourlyy', '@hourlyy', '@hourly'],
  ])('%s: names every @ form and suggests the closest', (spec, word, guess) => {
    const e = thrown(() => compileSpec(spec, { now: NOW }));
    expect(e.code).toBe('SPEC_INVALID');
    expect(e.details).toEqual({ field: 'spec', part: 'nickname', value: word, suggestion: guess });
    expect(e.message).toBe(
      `spec "${spec}": unknown form ${word} (did you mean ${guess}?); the @ forms are @every <duration>, ` +
        '@at <instant>, @in <duration> and the cron nicknames @yearly @annually @monthly @weekly @daily ' +
        '@midnight @hourly',
    );
  });

  it('suggests nothing for a word far from every form, and refuses text after a nickname', () => {
    const far = thrown(() => compileSpec('@reboot', { now: NOW }));
    expect(far.message).toMatch(/^spec "@reboot": unknown form @reboot; the @ forms are @every <duration>/);
    expect(far.details).not.toHaveProperty('suggestion');
    const extra = thrown(() => compileSpec('@daily 10', { now: NOW }));
    expect(extra.message).toBe(
      'spec "@daily 10": the nickname @daily is a whole spec; nothing may follow it',
    );
    expect(compileSpec('@DAILY', { now: NOW }).kind).toBe('cron');
  });

  it('quotes a never-firing RRULE as written, never the DTSTART it was given', () => {
    const e = thrown(() => compileSpec('FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30', { now: NOW }));
    expect(e.code).toBe('SPEC_NEVER_FIRES');
    expect(e.message).toMatch(/^spec "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30" /);
    expect(e.message).not.toContain('DTSTART');
    expect(e.details).toMatchObject({ field: 'spec', value: 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30' });
    // A DTSTART the user wrote is quoted, on one line.
    const written = thrown(() =>
      compileSpec('DTSTART:20200101T000000Z\nRRULE:FREQ=DAILY;COUNT=2', { now: NOW }),
    );
    expect(written.message).toMatch(/^spec "DTSTART:20200101T000000Z RRULE:FREQ=DAILY;COUNT=2" /);
  });

  it('quotes an @in as written, with the instant it resolved to', () => {
    const e = thrown(() => compileSpec('@in 3h', { now: NOW, endAt: at('2026-03-01T12:00:00Z') }));
    expect(e.message).toBe('spec "@in 3h" is due at 2026-03-01T13:00:00.000Z, outside startAt/endAt');
  });
});

describe('a cron search shared by the schedules of one spec and zone', () => {
  const asked = Date.parse('2026-03-28T12:00:00Z');
  const compile = (createdAt: number) =>
    compileSpec('30 2 * * *', {
      tz: 'Europe/Berlin',
      now: createdAt,
      anchor: createdAt,
      dst: { gap: 'skip' },
    });

  it('answers every schedule alike, still tells its drops, and lets no caller change a shared answer', () => {
    const a = compile(asked - 1000);
    const b = compile(asked - 2000);
    const first = a.nextDetailedAfter(asked);
    expect(first?.at).toBe(Date.parse('2026-03-30T00:30:00Z'));
    expect(b.nextDetailedAfter(asked)).toEqual(first);
    // The answer kept is searched again when its drops must be told.
    const dropped: string[] = [];
    expect(
      b.nextDetailedAfter(asked, (d) => dropped.push(`${new Date(d.at).toISOString()} ${d.reason}`)),
    ).toEqual(first);
    expect(dropped).toEqual(['2026-03-29T01:00:00.000Z dstGap']);
    expect(() => (first!.notes as unknown[]).push({ kind: 'dstRepeat', pass: 2 })).toThrow(TypeError);
    expect(a.nextDetailedAfter(asked)?.notes).toEqual([]);
  });
});
