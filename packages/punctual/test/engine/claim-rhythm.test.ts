// nextClaimAt: when the worker claims next after a claim, for each case of the earliest run left.

import { describe, expect, it } from 'vitest';
import { nextClaimAt } from '../../src/engine/claim-rhythm.js';

const T = 1_000_000;

describe('nextClaimAt', () => {
  it('sets no timer when nothing is scheduled, or when a run due at the claim was held back', () => {
    expect(nextClaimAt(null, T, 100)).toBeNull();
    expect(nextClaimAt(T, T, 100)).toBeNull();
    expect(nextClaimAt(T - 5, T, 100)).toBeNull();
  });

  it('claims a run the window left at its instant', () => {
    expect(nextClaimAt(T + 1, T, 100)).toBe(T + 1);
    expect(nextClaimAt(T + 100, T, 100)).toBe(T + 100);
  });

  it('claims a later run a window ahead, but no sooner than half a window after this claim', () => {
    expect(nextClaimAt(T + 500, T, 100)).toBe(T + 400);
    expect(nextClaimAt(T + 101, T, 100)).toBe(T + 50);
    expect(nextClaimAt(T + 150, T, 100)).toBe(T + 50);
    expect(nextClaimAt(T + 151, T, 100)).toBe(T + 51);
  });

  it('every run is claimed at least half a window ahead of its instant', () => {
    for (let next = T + 101; next < T + 400; next += 7) {
      const at = nextClaimAt(next, T, 100)!;
      expect(at).toBeGreaterThan(T);
      expect(next - at).toBeGreaterThanOrEqual(50);
    }
  });

  it('without a window, claims each run at its instant', () => {
    expect(nextClaimAt(T + 7, T, 0)).toBe(T + 7);
  });
});
