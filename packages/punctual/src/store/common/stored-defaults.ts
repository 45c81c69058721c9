// The schedule columns a store leaves out when they hold their default: jitter 0, policies when none differs
// from its default, no labels, the zone UTC, and two columns never written: the description (derived on every
// read) and `overlap` (read from the policies, never by SQL). PostgreSQL writes NULL for them (migration 26);
// SQLite, whose text columns stay NOT NULL, writes an empty text, which costs its record exactly what a NULL
// does (a header byte, no data: migration 0023). One place for both stores' inserts and updates
// (postgres-schedule-inserts.ts, postgres-schedule-changes.ts, sqlite-schedules.ts), so every put writes a
// draft the same way; the decoding reads both back as the default (store/common/row-decoding.ts). Pure: it
// must never run a statement or read a clock.

import type { ScheduleDraft } from '../../domain/schedule.js';
import { STORED_DEFAULT_TZ } from './row-decoding.js';
import { compactPolicies } from '../stored-policies.js';

/** The stored values of those columns for a draft: null where the column is left out. */
export interface StoredDefaults {
  policies: Record<string, unknown> | null;
  jitter_ms: number | null;
  description: null;
  labels: Record<string, string> | null;
  tz: string | null;
  overlap: null;
}

export function storedDefaults(d: ScheduleDraft): StoredDefaults {
  const policies = compactPolicies(d.policies);
  return {
    policies: Object.keys(policies).length === 0 ? null : policies,
    jitter_ms: d.jitterMs === 0 ? null : d.jitterMs,
    description: null,
    labels: Object.keys(d.labels).length === 0 ? null : d.labels,
    tz: d.tz === STORED_DEFAULT_TZ ? null : d.tz,
    overlap: null,
  };
}
