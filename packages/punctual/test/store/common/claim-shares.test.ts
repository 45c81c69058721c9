// The claim's plan across tenants, shared by both stores: one share of everything for one tenant, else an
// equal share each from a rotating first tenant, then the rest in the same order.

import { describe, expect, it } from 'vitest';
import { claimShares, shareUntil } from '../../../src/store/common/claim-shares.js';

describe('claim shares', () => {
  it('claims across every tenant at once when one tenant or none has runs due', () => {
    expect(claimShares([], 0, 10)).toEqual([{ tenant: null, cap: 10 }]);
    expect(claimShares(['a'], 3, 10)).toEqual([{ tenant: null, cap: 10 }]);
  });

  it('gives each tenant an equal share first, from the tenant whose turn it is, then the rest', () => {
    expect(claimShares(['a', 'b', 'c'], 4, 7)).toEqual([
      { tenant: 'b', cap: 3 },
      { tenant: 'c', cap: 3 },
      { tenant: 'a', cap: 3 },
      { tenant: 'b', cap: 7 },
      { tenant: 'c', cap: 7 },
      { tenant: 'a', cap: 7 },
    ]);
  });

  it('shares at least one run each when the claim is smaller than the tenants', () => {
    expect(
      claimShares(['a', 'b', 'c'], 0, 2)
        .slice(0, 3)
        .map((s) => s.cap),
    ).toEqual([1, 1, 1]);
  });

  it('never lets a share take the claim past its limit', () => {
    expect(shareUntil({ tenant: 'a', cap: 3 }, 5, 10)).toBe(8);
    expect(shareUntil({ tenant: 'a', cap: 10 }, 5, 10)).toBe(10);
  });
});
