// What runs mean to a reader: reasons in words, lateness and duration, recent outcomes for spark lines,
// the 24-hour timeline buckets, and log lines from script results.
import { describe, expect, it } from 'vitest';
import type { Run } from '../src/api.ts';
import {
  countsText,
  durationMs,
  latenessMs,
  logsOf,
  reasonText,
  recentOutcomes,
  recentOutcomesByKey,
  timelineBuckets,
} from '../src/lib/runs.ts';
import { targetText } from '../src/lib/schedules.ts';

describe('runs', () => {
  it('explains reasons', () => {
    expect(reasonText('paused')).toBe('the schedule was paused at its time');
    expect(reasonText('somethingNew')).toBe('somethingNew');
    expect(reasonText(null)).toBe('');
  });

  it('measures lateness and duration', () => {
    const r = {
      dueAt: '2026-01-01T00:00:00.000Z',
      startedAt: '2026-01-01T00:00:00.250Z',
      finishedAt: '2026-01-01T00:00:01.000Z',
    };
    expect(latenessMs(r)).toBe(250);
    expect(durationMs(r)).toBe(750);
    expect(latenessMs({ ...r, startedAt: null })).toBeNull();
    expect(durationMs({ ...r, finishedAt: null })).toBeNull();
  });

  it('keeps the latest final outcomes, oldest first', () => {
    const runs = ['scheduled', 'succeeded', 'dead', 'running', 'succeeded'].map((state) => ({
      state,
    })) as Pick<Run, 'state'>[];
    expect(recentOutcomes(runs, 2)).toEqual(['dead', 'succeeded']);
  });

  it("groups one listing of the tenant's runs into each schedule's outcomes", () => {
    const runs = [
      { scheduleKey: 'a', state: 'dead' },
      { scheduleKey: 'b', state: 'succeeded' },
      { scheduleKey: 'a', state: 'running' },
      { scheduleKey: 'a', state: 'succeeded' },
    ] as Pick<Run, 'state' | 'scheduleKey'>[];
    const by = recentOutcomesByKey(runs);
    expect(by.get('a')).toEqual(['succeeded', 'dead']);
    expect(by.get('b')).toEqual(['succeeded']);
    expect(by.has('c')).toBe(false);
  });

  it('counts runs per hour over the last 24 hours', () => {
    const now = Date.UTC(2026, 0, 2, 10, 30);
    const runs = [
      { state: 'succeeded', scheduledFor: '2026-01-02T10:05:00Z' },
      { state: 'dead', scheduledFor: '2026-01-02T10:59:59Z' },
      { state: 'succeeded', scheduledFor: '2026-01-01T11:00:00Z' },
      { state: 'succeeded', scheduledFor: '2026-01-01T10:59:59Z' },
      { state: 'scheduled', scheduledFor: '2026-01-02T11:00:00Z' },
    ] as Pick<Run, 'state' | 'scheduledFor'>[];
    const b = timelineBuckets(runs, now);
    expect(b).toHaveLength(24);
    expect(b[0]?.start).toBe(Date.UTC(2026, 0, 1, 11));
    expect(b[0]?.counts).toEqual({ succeeded: 1 });
    expect(b[23]?.counts).toEqual({ succeeded: 1, dead: 1 });
    expect(b.reduce((n, x) => n + x.total, 0)).toBe(3);
    expect(countsText(b[23]?.counts ?? {})).toBe('1 succeeded, 1 dead');
    expect(countsText({})).toBe('none');
  });

  it('reads script logs from a result', () => {
    expect(logsOf({ logs: ['a', { level: 'warn', message: 'b' }, 3] })).toEqual(['a', '[warn] b', '3']);
    expect(logsOf({ ok: true })).toBeNull();
    expect(logsOf(null)).toBeNull();
  });

  it('says where a target delivers', () => {
    expect(targetText({ handler: 'send-report' })).toBe('handler send-report');
    expect(targetText({ webhook: { url: 'https://example.com:8443/x' } })).toBe('webhook example.com:8443');
    expect(targetText({ webhook: { url: 'https://example.com/x', method: 'PUT' } })).toBe(
      'webhook example.com (PUT)',
    );
  });
});
