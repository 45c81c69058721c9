// Descriptions: "<time>, <days>, <zone>" for cron, and the wording of the other kinds.
import { describe, expect, it } from 'vitest';
import { compileSpec } from '../../src/domain/timing/compile-spec.js';
import { describeCron } from '../../src/domain/timing/describe-cron.js';
import { describeStoredSpec } from '../../src/domain/timing/describe-spec.js';

describe('describeCron', () => {
  it.each([
    ['30 2 * * *', 'America/New_York', 'At 02:30, every day, America/New_York'],
    ['*/15 * * * *', 'Europe/Paris', 'Every 15 minutes, Europe/Paris'],
    ['0 9 L * *', 'UTC', 'At 09:00, on the last day of the month, UTC'],
    ['0 10 * * 5#2', 'UTC', 'At 10:00, on the second Friday of the month, UTC'],
    ['0 10 * * FRI#L', 'UTC', 'At 10:00, on the last Friday of the month, UTC'],
    ['0 10 * * 5L', 'UTC', 'At 10:00, on the last Friday of the month, UTC'],
    ['* * * * * *', 'UTC', 'Every second, UTC'],
    ['*/10 * * * * *', 'UTC', 'Every 10 seconds, UTC'],
    ['* * * * *', 'UTC', 'Every minute, UTC'],
    ['0 0 * * 1-5', 'UTC', 'At 00:00, only on Monday through Friday, UTC'],
    ['0 9,17 * * MON,WED,FRI', 'UTC', 'At 09:00 and 17:00, only on Monday, Wednesday and Friday, UTC'],
    ['0 */2 * * *', 'UTC', 'Every 2 hours, UTC'],
    ['15 */6 * * *', 'UTC', 'Every 6 hours at minute 15, UTC'],
    [
      '*/5 9-17 * * 1-5',
      'UTC',
      'Every 5 minutes, between 09:00 and 17:59, only on Monday through Friday, UTC',
    ],
    ['0 9-17 * * *', 'UTC', 'Every hour, from 09:00 through 17:00, UTC'],
    ['0 0 1,15 * *', 'UTC', 'At 00:00, on day 1 and day 15 of the month, UTC'],
    ['0 0 1 * 1', 'UTC', 'At 00:00, on day 1 of the month or on Monday, UTC'],
    ['0 0 */2 * 1', 'UTC', 'At 00:00, on every 2nd day of the month and on Monday, UTC'],
    ['0 0 15W * *', 'UTC', 'At 00:00, on the weekday nearest day 15 of the month, UTC'],
    ['0 0 LW * *', 'UTC', 'At 00:00, on the last weekday of the month, UTC'],
    ['0 0 12 1 1 * 2027', 'UTC', 'At 12:00, on January 1, in 2027, UTC'],
    ['0 0 0 1 JAN-MAR *', 'UTC', 'At 00:00, on day 1 of the month, in January through March, UTC'],
    ['30 0 12 * * *', 'UTC', 'At 12:00:30, every day, UTC'],
    ['1,31 1 * * *', 'UTC', 'At 01:01 and 01:31, every day, UTC'],
    ['@daily', 'UTC', 'At 00:00, every day, UTC'],
    ['@hourly', 'UTC', 'Every hour, UTC'],
    ['@weekly', 'UTC', 'At 00:00, only on Sunday, UTC'],
    ['@monthly', 'UTC', 'At 00:00, on day 1 of the month, UTC'],
    ['@yearly', 'UTC', 'At 00:00, on January 1, UTC'],
  ])('%s', (expr, tz, text) => {
    expect(describeCron(expr, tz)).toBe(text);
  });

  it.each([
    ['garbage', 'Cron garbage, UTC'],
    ['0   0 31 2 *', 'At 00:00, on February 31, UTC'],
    ['7,19,23,41 1,5,9 * * *', 'Cron 7,19,23,41 1,5,9 * * *, UTC'],
    ['', 'Cron , UTC'],
  ])('never throws: %j', (expr, text) => {
    expect(describeCron(expr, 'UTC')).toBe(text);
  });
});

describe('descriptions of the other kinds', () => {
  const now = Date.parse('2026-03-01T10:00:00Z');
  it.each([
    ['@every 90m', 'UTC', 'Every 1h 30m'],
    ['@every P1DT2H', 'UTC', 'Every 1d 2h'],
    ['@at 2026-03-08T09:00:00Z', 'Europe/Berlin', 'Once at 2026-03-08 10:00, Europe/Berlin'],
    [
      'DTSTART;TZID=Europe/Paris:20260101T090000\nRRULE:FREQ=MONTHLY;BYDAY=2FR',
      'UTC',
      'Every month on 2nd Friday at 9 AM, Europe/Paris',
    ],
    [
      'FREQ=WEEKLY;BYDAY=MO,TU;BYHOUR=9,17;BYMINUTE=0',
      'UTC',
      'Every week on Monday and Tuesday at 9 AM and 5 PM, UTC',
    ],
    ['0 30 2 * * *', 'America/New_York', 'At 02:30, every day, America/New_York'],
  ])('%s', (spec, tz, text) => {
    expect(compileSpec(spec, { tz, now }).description).toBe(text);
  });
});

describe('describeStoredSpec', () => {
  const now = Date.parse('2026-03-01T10:00:00Z');
  const specs = [
    '30 2 * * *',
    '*/15 * * * *',
    '0 10 * * FRI#L',
    '0 0 12 1 1 * 2027',
    '7,19,23,41 1,5,9 * * *',
    '@daily',
    '@every 90m',
    '@every P1DT2H',
    '@at 2026-03-08T09:00:00Z',
    '@at 2026-03-29 02:30',
    '@in 10m',
    'DTSTART;TZID=Europe/Paris:20260101T090000\nRRULE:FREQ=MONTHLY;BYDAY=2FR',
    'FREQ=WEEKLY;BYDAY=MO,TU;BYHOUR=9,17;BYMINUTE=0',
    'RRULE:FREQ=DAILY;COUNT=3',
  ];
  const zones = ['UTC', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe'];
  const bounds = [{}, { startAt: now - 86_400_000 + 1234 }];
  it.each(specs.flatMap((spec) => zones.flatMap((tz) => bounds.map((b) => [spec, tz, b] as const))))(
    'derives what the save said: %s in %s %j',
    (spec, tz, b) => {
      const saved = compileSpec(spec, { tz, now, anchor: now, ...b });
      expect(describeStoredSpec(saved.source, saved.kind, saved.tz)).toBe(saved.description);
    },
  );

  it('describes a source no release would store literally, without throwing', () => {
    expect(describeStoredSpec('@every soon', 'every', 'UTC')).toBe('every @every soon, UTC');
    expect(describeStoredSpec('garbage', 'cron', 'UTC')).toBe('Cron garbage, UTC');
  });
});
