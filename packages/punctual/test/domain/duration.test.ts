// Durations: the Go-style and ISO-8601 forms, their limits, and the words used in descriptions.
import { describe, expect, it } from 'vitest';
import { isPunctualError } from '../../src/errors.js';
import { formatDuration, parseDuration } from '../../src/domain/timing/duration.js';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

describe('parseDuration', () => {
  it.each([
    ['90s', 90 * S],
    ['1h30m', H + 30 * M],
    ['1d2h', D + 2 * H],
    ['500ms', 500],
    ['2w', 14 * D],
    ['1h 30m', H + 30 * M],
    ['1.5h', H + 30 * M],
    [' 15m ', 15 * M],
    ['366d', 366 * D],
    ['PT15M', 15 * M],
    ['P1DT2H', D + 2 * H],
    ['PT0.5S', 500],
    ['P2W', 14 * D],
    ['P1D', D],
    ['PT1H30M', H + 30 * M],
    ['pt15m', 15 * M],
    ['PT0,5S', 500],
  ])('%s = %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each([
    ['', 'is empty'],
    ['   ', 'is empty'],
    ['0s', 'greater than zero'],
    ['PT0S', 'greater than zero'],
    ['-5m', 'negative'],
    ['5x', 'unknown unit "x"'],
    ['5', 'not understood'],
    ['1h1h', 'twice'],
    ['367d', '366 days'],
    ['P1Y', 'years or months'],
    ['P1M', 'years or months'],
    ['PT', 'ISO-8601'],
    ['P', 'ISO-8601'],
    ['P1H', 'ISO-8601'],
    ['5 minutes', 'unknown unit "minutes"'],
  ])('rejects %j (%s)', (text, why) => {
    let caught: unknown;
    try {
      parseDuration(text);
    } catch (e) {
      caught = e;
    }
    expect(isPunctualError(caught, 'DURATION_INVALID')).toBe(true);
    expect((caught as Error).message).toContain(why);
    expect((caught as { details: unknown }).details).toEqual({ value: text });
  });
});

describe('formatDuration', () => {
  it.each([
    [H + 30 * M, '1h 30m'],
    [90 * S, '1m 30s'],
    [500, '500ms'],
    [14 * D, '14d'],
    [D + 2 * H + 3 * S, '1d 2h 3s'],
    [0, '0s'],
  ])('%d ms -> %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it('round-trips through parseDuration', () => {
    for (const ms of [1, 999, S, 61 * S, 3 * H + 7 * M, 5 * D + 1])
      expect(parseDuration(formatDuration(ms))).toBe(ms);
  });
});
