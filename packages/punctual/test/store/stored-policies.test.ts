// Compact policies: a row keeps only what differs from the defaults, and expands back to the same policies
// (rows written out in full by older releases too).

import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICIES, resolvePolicies } from '../../src/domain/policies.js';
import { compactPolicies, expandPolicies } from '../../src/store/stored-policies.js';

describe('stored policies', () => {
  it('keeps nothing for the defaults and only the differing fields otherwise', () => {
    expect(compactPolicies(DEFAULT_POLICIES)).toEqual({});
    const p = resolvePolicies({
      overlap: 'skip',
      deadlineMs: 5000,
      retry: { maxAttempts: 1, jitter: false },
    });
    expect(compactPolicies(p)).toEqual({
      overlap: 'skip',
      deadlineMs: 5000,
      retry: { maxAttempts: 1, jitter: false },
    });
  });

  it('expands the compact form and the full form to the same policies, in the canonical order', () => {
    const p = resolvePolicies({ priority: 7, retry: { backoff: 'fixed' } });
    const compact = JSON.parse(JSON.stringify(compactPolicies(p))) as unknown;
    const full = JSON.parse(JSON.stringify(p)) as unknown;
    expect(expandPolicies(compact)).toEqual(p);
    expect(expandPolicies(full)).toEqual(p);
    expect(Object.keys(expandPolicies(compact))).toEqual(Object.keys(DEFAULT_POLICIES));
    expect(expandPolicies({})).toEqual(DEFAULT_POLICIES);
  });
});
