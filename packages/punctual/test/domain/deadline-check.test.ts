// Deadline checks and schedule expectations as the domain judges them: which bodies are refused (and with
// which code), the windows a deadline watches, and the verdict of a closed window. Instants are fixed.

import { describe, expect, it } from 'vitest';
import { parseCheckInput } from '../../src/domain/alert-input.js';
import { deadlineVerdict, nextWindowStart, parseDeadline } from '../../src/domain/deadline-check.js';
import {
  expectByOf,
  expectationOps,
  expectationVerdict,
  parseExpect,
} from '../../src/domain/schedule-expect.js';

// Monday 5 January 2026, 00:00 UTC (Paris is UTC+1 in winter: 09:00 Paris is 08:00 UTC).
const NOW = Date.parse('2026-01-05T00:00:00Z');
const MIN = 60_000;
const body = (over: Record<string, unknown> = {}) => ({
  name: 'report-by-0915',
  kind: 'deadline',
  schedule: 'reports.daily',
  spec: '0 9 * * 1-5',
  tz: 'Europe/Paris',
  within: '15m',
  ...over,
});

function codeOf(fn: () => unknown): [string, unknown] {
  try {
    fn();
  } catch (e) {
    const err = e as { code: string; details?: { field?: unknown } };
    return [err.code, err.details?.field];
  }
  return ['none', undefined];
}

describe('deadline check bodies', () => {
  it('accepts a deadline (its schedule need not exist) and keeps the spec, zone and window length', () => {
    expect(parseCheckInput(body(), NOW)).toEqual({
      name: 'report-by-0915',
      kind: 'deadline',
      deadline: { schedule: 'reports.daily', spec: '0 9 * * 1-5', tz: 'Europe/Paris', withinMs: 15 * MIN },
    });
  });

  it('refuses a deadline that can never be met with CHECK_DEADLINE_UNMEETABLE', () => {
    expect(codeOf(() => parseCheckInput(body({ within: '0s' }), NOW))).toEqual([
      'CHECK_DEADLINE_UNMEETABLE',
      'within',
    ]);
    expect(codeOf(() => parseCheckInput(body({ within: '-5m' }), NOW))).toEqual([
      'CHECK_DEADLINE_UNMEETABLE',
      'within',
    ]);
    // Windows every hour: a 2h window is still open when the next opens.
    expect(codeOf(() => parseCheckInput(body({ spec: '0 * * * *', within: '2h' }), NOW))).toEqual([
      'CHECK_DEADLINE_UNMEETABLE',
      'within',
    ]);
    // A window as long as the gap is accepted (Friday to Monday is longer, the weekday gaps are a day).
    expect(parseCheckInput(body({ within: '24h' }), NOW).kind).toBe('deadline');
    expect(codeOf(() => parseCheckInput(body({ within: '25h' }), NOW))[0]).toBe('CHECK_DEADLINE_UNMEETABLE');
    // A spec whose instants are all past.
    const past = 'DTSTART:20250101T090000Z\nRRULE:FREQ=DAILY;UNTIL=20250201T090000Z';
    expect(codeOf(() => parseCheckInput(body({ spec: past }), NOW))).toEqual([
      'CHECK_DEADLINE_UNMEETABLE',
      'spec',
    ]);
  });

  it('refuses malformed fields with CHECK_INVALID, and spec or zone errors with their own codes', () => {
    expect(codeOf(() => parseCheckInput(body({ spec: '@every 1h' }), NOW))).toEqual([
      'CHECK_INVALID',
      'spec',
    ]);
    expect(codeOf(() => parseCheckInput(body({ every: '10m' }), NOW))).toEqual(['CHECK_INVALID', 'every']);
    expect(codeOf(() => parseCheckInput(body({ schedule: '' }), NOW))).toEqual(['CHECK_INVALID', 'schedule']);
    expect(codeOf(() => parseCheckInput(body({ within: 'soon' }), NOW))).toEqual(['CHECK_INVALID', 'within']);
    expect(codeOf(() => parseCheckInput(body({ spec: '61 9 * * *' }), NOW))[0]).toBe('SPEC_INVALID');
    expect(codeOf(() => parseCheckInput(body({ tz: 'Mars/Olympus' }), NOW))[0]).toBe('TIME_ZONE_UNKNOWN');
    expect(
      codeOf(() => parseCheckInput({ name: 'hb', kind: 'heartbeat', every: '1m', within: '1m' }, NOW)),
    ).toEqual(['CHECK_INVALID', 'within']);
  });

  it('watches the first window whose close is ahead, in the spec’s zone', () => {
    const d = parseDeadline(body(), NOW);
    const monday9 = Date.parse('2026-01-05T08:00:00Z');
    expect(nextWindowStart(d, NOW - d.withinMs, NOW)).toBe(monday9);
    // Saved mid-window: that window is watched; once it closed, the next working day's.
    expect(nextWindowStart(d, 0, monday9 + 5 * MIN)).toBe(monday9);
    expect(nextWindowStart(d, monday9, monday9 + 15 * MIN)).toBe(Date.parse('2026-01-06T08:00:00Z'));
    const friday = Date.parse('2026-01-09T08:00:00Z');
    expect(nextWindowStart(d, friday, friday + 15 * MIN)).toBe(Date.parse('2026-01-12T08:00:00Z'));
  });

  it('a closed window opens deadline_missed, a met one clears it', () => {
    const deadline = parseDeadline(body(), NOW);
    const c = { tenantId: 't', name: 'report-by-0915', deadline };
    const start = Date.parse('2026-01-05T08:00:00Z');
    const missed = deadlineVerdict(c, start, false);
    expect(missed).toMatchObject({
      open: {
        kind: 'deadline_missed',
        subjectKind: 'check',
        subject: 'report-by-0915',
        details: {
          schedule: 'reports.daily',
          windowStart: '2026-01-05T08:00:00.000Z',
          windowEnd: '2026-01-05T08:15:00.000Z',
        },
      },
    });
    expect(deadlineVerdict(c, start, true)).toEqual({
      clear: { tenantId: 't', subjectKind: 'check', subject: 'report-by-0915', kinds: ['deadline_missed'] },
    });
  });
});

describe('schedule expectations', () => {
  it('parses successWithin as a duration or milliseconds, 1s to 31 days', () => {
    expect(parseExpect(undefined)).toBeNull();
    expect(parseExpect(null)).toBeNull();
    expect(parseExpect({ successWithin: '15m' })).toEqual({ successWithinMs: 15 * MIN });
    expect(parseExpect({ successWithin: 'PT1H' })).toEqual({ successWithinMs: 60 * MIN });
    expect(parseExpect({ successWithin: 1000 })).toEqual({ successWithinMs: 1000 });
    for (const bad of [
      { successWithin: 999 },
      { successWithin: '32d' },
      { successWithin: '0s' },
      {},
      'x',
      [],
    ]) {
      expect(codeOf(() => parseExpect(bad))[0]).toBe('EXPECT_INVALID');
    }
  });

  it('a run must succeed by its start plus successWithin; a skipped record expects nothing', () => {
    const e = { successWithinMs: 5 * MIN };
    expect(expectByOf(e, { scheduledFor: NOW, state: 'scheduled' })).toBe(NOW + 5 * MIN);
    // Rolled by a business-day rule: counted from the day it was rolled to.
    expect(
      expectByOf(e, { scheduledFor: NOW, state: 'scheduled', details: { rolledTo: NOW + 3 * MIN } }),
    ).toBe(NOW + 8 * MIN);
    expect(expectByOf(e, { scheduledFor: NOW, state: 'skipped' })).toBeNull();
    expect(expectByOf(null, { scheduledFor: NOW, state: 'scheduled' })).toBeNull();
  });

  it('judges a closed window: met in time clears, late or failed opens, cancelled says nothing', () => {
    const due = {
      tenantId: 't',
      scheduleKey: 'job',
      runId: '7',
      scheduledFor: NOW,
      expectBy: NOW + MIN,
    };
    expect(expectationVerdict({ ...due, state: 'succeeded', finishedAt: NOW + MIN })).toHaveProperty('clear');
    expect(expectationVerdict({ ...due, state: 'succeeded', finishedAt: NOW + MIN + 1 })).toHaveProperty(
      'open',
    );
    expect(expectationVerdict({ ...due, state: 'running', finishedAt: null })).toHaveProperty('open');
    expect(expectationVerdict({ ...due, state: 'dead', finishedAt: NOW })).toHaveProperty('open');
    expect(expectationVerdict({ ...due, state: 'cancelled', finishedAt: NOW })).toBeNull();
  });

  it('writes a batch of verdicts without repeats: open, open, clear, open about one schedule is three ops', () => {
    const at = (state: string, key = 'job') => ({
      tenantId: 't',
      scheduleKey: key,
      runId: '1',
      scheduledFor: NOW,
      expectBy: NOW + MIN,
      state,
      finishedAt: NOW + 1,
    });
    const ops = expectationOps([at('dead'), at('dead'), at('dead', 'other'), at('succeeded'), at('dead')]);
    expect(ops.map((o) => ('open' in o ? `open ${o.open.subject}` : `clear ${o.clear.subject}`))).toEqual([
      'open job',
      'open other',
      'clear job',
      'open job',
    ]);
  });
});
