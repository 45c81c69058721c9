// Which schedules get series of their own in the per-schedule metrics (PUNCTUAL_METRICS_SCHEDULE_LABELS):
// the setting's syntax, its check, and the matcher built from it. Opt-in by name keeps the label's
// cardinality in the operator's hands. Pure: no I/O, no clock.
//
// Syntax: comma-separated patterns, each `[tenant/]key`, where the key may end with `*` to match a prefix
// (`*` alone matches every key). Without `tenant/`, a pattern matches that key in every tenant.
// Examples: `nightly-report`, `acme/billing.*`, `reports.*,acme/sync`.

const TENANT = '[a-z0-9][a-z0-9_-]{0,62}';
const KEY = '[A-Za-z0-9_][A-Za-z0-9._:@-]{0,199}';
const PATTERN_RE = new RegExp(`^(?:(${TENANT})/)?(${KEY}\\*?|\\*)$`);

export interface SchedulePattern {
  tenant: string | null;
  key: string;
  prefix: boolean;
}

/** The patterns of the setting, or the first entry that is not one. Empty text: no pattern. */
export function parseSchedulePatterns(text: string): { patterns: SchedulePattern[] } | { bad: string } {
  const patterns: SchedulePattern[] = [];
  for (const raw of text.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const m = PATTERN_RE.exec(entry);
    if (m === null) return { bad: entry };
    const key = m[2] as string;
    const prefix = key.endsWith('*');
    patterns.push({ tenant: m[1] ?? null, key: prefix ? key.slice(0, -1) : key, prefix });
  }
  return { patterns };
}

/** True when the setting's text is valid (for the configuration schema). */
export function isSchedulePatternList(text: string): boolean {
  return 'patterns' in parseSchedulePatterns(text);
}

/** A matcher for (tenant, key); it matches nothing for an empty or invalid setting. */
export function scheduleMatcher(text: string): (tenantId: string, key: string) => boolean {
  const parsed = parseSchedulePatterns(text);
  const patterns = 'patterns' in parsed ? parsed.patterns : [];
  if (patterns.length === 0) return () => false;
  return (tenantId, key) =>
    patterns.some(
      (p) =>
        (p.tenant === null || p.tenant === tenantId) && (p.prefix ? key.startsWith(p.key) : key === p.key),
    );
}
