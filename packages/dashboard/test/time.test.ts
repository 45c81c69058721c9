// Time and zone formatting: every instant names its zone and offset, DST gaps and repeated hours convert
// predictably, and durations and relative times read as documented.
import { describe, expect, it } from 'vitest';
import {
  axisTimeLabel,
  formatDuration,
  formatInstant,
  formatOffset,
  formatRelative,
  instantToWallTime,
  isValidZone,
  wallTimeToInstant,
  zoneOffsetMinutes,
} from '../src/lib/time.ts';

describe('formatInstant', () => {
  it('shows the wall time, the offset and the zone name', () => {
    expect(formatInstant('2026-03-09T06:30:00.000Z', 'America/New_York')).toBe(
      'Mon 2026-03-09 02:30:00 -04:00 America/New_York',
    );
    expect(formatInstant('2026-01-05T08:00:00Z', 'Europe/Paris')).toBe(
      'Mon 2026-01-05 09:00:00 +01:00 Europe/Paris',
    );
    expect(formatInstant('2026-07-05T08:00:00Z', 'Europe/Paris')).toBe(
      'Sun 2026-07-05 10:00:00 +02:00 Europe/Paris',
    );
    expect(formatInstant(Date.UTC(2026, 0, 1), 'UTC')).toBe('Thu 2026-01-01 00:00:00 +00:00 UTC');
  });

  it('handles half-hour offsets and midnight', () => {
    expect(formatInstant('2026-01-01T18:30:00Z', 'Asia/Kolkata')).toBe(
      'Fri 2026-01-02 00:00:00 +05:30 Asia/Kolkata',
    );
  });

  it('can leave out the weekday, seconds or zone name, but never the offset', () => {
    const text = formatInstant('2026-01-05T08:00:00Z', 'Europe/Paris', {
      weekday: false,
      seconds: false,
      zoneName: false,
    });
    expect(text).toBe('2026-01-05 09:00 +01:00');
  });

  it('falls back to UTC for an unknown zone and says so', () => {
    expect(formatInstant('2026-01-05T08:00:00Z', 'Mars/Olympus')).toBe('Mon 2026-01-05 08:00:00 +00:00 UTC');
    expect(isValidZone('Mars/Olympus')).toBe(false);
    expect(isValidZone('')).toBe(false);
    expect(isValidZone('Australia/Lord_Howe')).toBe(true);
  });

  it('says so when the instant is not one', () => {
    expect(formatInstant('yesterday', 'UTC')).toBe('invalid time');
  });
});

describe('offsets', () => {
  it('follows daylight saving time', () => {
    expect(zoneOffsetMinutes(Date.UTC(2026, 0, 15), 'America/New_York')).toBe(-300);
    expect(zoneOffsetMinutes(Date.UTC(2026, 6, 15), 'America/New_York')).toBe(-240);
    expect(zoneOffsetMinutes(Date.UTC(2026, 0, 15), 'Australia/Lord_Howe')).toBe(660);
    expect(zoneOffsetMinutes(Date.UTC(2026, 6, 15), 'Australia/Lord_Howe')).toBe(630);
  });

  it('formats signed hours and minutes', () => {
    expect(formatOffset(0)).toBe('+00:00');
    expect(formatOffset(330)).toBe('+05:30');
    expect(formatOffset(-240)).toBe('-04:00');
    expect(formatOffset(-570)).toBe('-09:30');
  });
});

describe('wall times typed in a zone', () => {
  it('reads an ordinary wall time in the given zone', () => {
    expect(new Date(wallTimeToInstant('2026-01-05T09:00', 'Europe/Paris') as number).toISOString()).toBe(
      '2026-01-05T08:00:00.000Z',
    );
    expect(new Date(wallTimeToInstant('2026-07-05T09:00:30', 'Europe/Paris') as number).toISOString()).toBe(
      '2026-07-05T07:00:30.000Z',
    );
    expect(new Date(wallTimeToInstant('2026-01-05 09:00', 'UTC') as number).toISOString()).toBe(
      '2026-01-05T09:00:00.000Z',
    );
  });

  it('moves a wall time in a spring-forward gap forward by the gap', () => {
    // New York, 8 March 2026: 02:00 jumps to 03:00, so 02:30 does not exist; 03:30 EDT is 07:30Z.
    expect(new Date(wallTimeToInstant('2026-03-08T02:30', 'America/New_York') as number).toISOString()).toBe(
      '2026-03-08T07:30:00.000Z',
    );
  });

  it('picks the earlier instant in a repeated hour', () => {
    // New York, 1 November 2026: 01:30 happens at 05:30Z (EDT) and again at 06:30Z (EST).
    expect(new Date(wallTimeToInstant('2026-11-01T01:30', 'America/New_York') as number).toISOString()).toBe(
      '2026-11-01T05:30:00.000Z',
    );
  });

  it('refuses what is not a wall time or a zone', () => {
    expect(wallTimeToInstant('tomorrow', 'UTC')).toBeNull();
    expect(wallTimeToInstant('2026-01-05T09:00', 'Nowhere/Town')).toBeNull();
  });

  it('round-trips through the datetime-local value', () => {
    const ms = Date.UTC(2026, 9, 25, 0, 15);
    const wall = instantToWallTime(ms, 'Europe/London');
    expect(wall).toBe('2026-10-25T01:15');
    expect(wallTimeToInstant(wall, 'Europe/London')).toBe(ms);
  });
});

describe('durations and relative times', () => {
  it('reads durations for people', () => {
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(1_250)).toBe('1.25 s');
    expect(formatDuration(12_000)).toBe('12 s');
    expect(formatDuration(185_000)).toBe('3 min 5 s');
    expect(formatDuration(7_380_000)).toBe('2 h 3 min');
    expect(formatDuration(93_600_000)).toBe('1 d 2 h');
    expect(formatDuration(null)).toBe('—');
  });

  it('says how far away an instant is', () => {
    const now = Date.UTC(2026, 0, 1, 12);
    expect(formatRelative(now + 5 * 60_000, now)).toBe('in 5 min');
    expect(formatRelative(now - 3 * 3_600_000, now)).toBe('3 h ago');
    expect(formatRelative(now + 200, now)).toBe('just now');
    expect(formatRelative(new Date(now + 2 * 86_400_000).toISOString(), now)).toBe('in 2 d');
  });
});

describe('chart axis labels', () => {
  it('are as precise as the span needs, in the given zone', () => {
    const ms = Date.UTC(2026, 10, 22, 13, 5);
    expect(axisTimeLabel(ms, 'Europe/Paris', 3_600_000)).toBe('14:05');
    expect(axisTimeLabel(ms, 'Europe/Paris', 3 * 86_400_000)).toBe('11-22 14:05');
    expect(axisTimeLabel(ms, 'Asia/Kolkata', 60 * 86_400_000)).toBe('2026-11-22');
  });
});
