// The keep-per-schedule scan's mark: it moves past what a batch read, stays a lag behind `now`, goes on from
// a full batch's last instant (its ties read again) and never stalls on a batch of one instant.

import { describe, expect, it } from 'vitest';
import { KEEP_SCAN_LAG_MS, KeepScan, type FinishedRef } from '../../src/store/keep-scan.js';

const NOW = Date.UTC(2026, 0, 5, 12);
const refs = (...at: number[]): FinishedRef[] =>
  at.map((finishedAt, i) => ({ scheduleId: String(i % 2), finishedAt }));

describe('keep scan', () => {
  it('catches up on a short batch, never past now less the lag', () => {
    const scan = new KeepScan();
    expect(scan.advance(refs(10, 20), 3, NOW)).toBe(true);
    expect(scan.from).toBe(21);
    expect(scan.advance(refs(NOW - 10), 3, NOW)).toBe(true);
    expect(scan.from).toBe(NOW - KEEP_SCAN_LAG_MS);
    // An empty batch moves it up to the lag, never back.
    expect(scan.advance([], 3, NOW + 5_000)).toBe(true);
    expect(scan.from).toBe(NOW + 5_000 - KEEP_SCAN_LAG_MS);
    scan.rewind(7);
    expect(scan.from).toBe(7);
  });

  it('goes on from a full batch, and past a full batch of one instant', () => {
    const scan = new KeepScan();
    expect(scan.advance(refs(10, 20, 20), 3, NOW)).toBe(false);
    expect(scan.from).toBe(20);
    expect(scan.advance(refs(20, 20, 20), 3, NOW)).toBe(false);
    expect(scan.from).toBe(21);
  });

  it('names each schedule once per call', () => {
    const seen = new Set<string>();
    expect(KeepScan.schedules(refs(1, 2, 3), seen)).toEqual(['0', '1']);
    expect(KeepScan.schedules(refs(4, 5), seen)).toEqual([]);
  });
});
