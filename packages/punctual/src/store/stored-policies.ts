// How a schedule's policies are kept in a store row: only what differs from the documented defaults (most
// schedules keep every default, so most rows hold `{}`), expanded back to the full policies on read. Rows
// written before this form (every field written out) expand to the same policies. Pure: it must never perform
// I/O or read a clock, and never change what a policy means (the defaults come from the domain).

import { DEFAULT_POLICIES, resolvePolicies, type Policies } from '../domain/policies.js';

type Stored = Record<string, unknown>;

/** The fields of `p` that differ from the defaults (retry: its differing settings), for a row. */
export function compactPolicies(p: Policies): Stored {
  // The defaults themselves (no policies given): nothing differs.
  if (p === DEFAULT_POLICIES) return {};
  const out: Stored = {};
  const d = DEFAULT_POLICIES as unknown as Stored;
  for (const [k, v] of Object.entries(p)) {
    if (k === 'retry') continue;
    if (v !== d[k]) out[k] = v;
  }
  const retry: Stored = {};
  const dr = DEFAULT_POLICIES.retry as unknown as Stored;
  for (const [k, v] of Object.entries(p.retry)) if (v !== dr[k]) retry[k] = v;
  if (Object.keys(retry).length > 0) out.retry = retry;
  return out;
}

/** The full policies a row's stored form stands for (compact or written out in full). */
export function expandPolicies(stored: unknown): Policies {
  return resolvePolicies(stored ?? {});
}
