// Messages for inputs the schemas can only call "Invalid input": a target that is missing, not an object,
// or names no kind (the kinds listed from the library's TARGET_KINDS, with a "did you mean" for a typo), a
// problem inside a known kind (named by its path), and an instant without a UTC offset. It only words
// messages for zod's issues; it never decides what is valid.

import { TARGET_KINDS, closestName } from 'punctual';

interface Issue {
  code?: string;
  path?: PropertyKey[];
  message?: string;
  keys?: string[];
}

interface UnionIssue {
  input?: unknown;
  /** The issues of each option of the union, in TARGET_KINDS order. */
  errors?: Issue[][];
}

const KINDS = TARGET_KINDS.join(', ');

/** The message of a target that matched none of the kinds. */
export function targetMessage(issue: UnionIssue): string {
  const input = issue.input;
  if (input === undefined) return `is required: an object with one of the target kinds ${KINDS}`;
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return `must be an object with exactly one of the target kinds ${KINDS}, such as {"webhook": {"url": "https://..."}}`;
  }
  const keys = Object.keys(input);
  const known = keys.filter((k) => (TARGET_KINDS as readonly string[]).includes(k));
  if (keys.length === 1 && known.length === 1) {
    // One known kind with a problem inside it: that kind's own first issue, by its path.
    const kind = known[0] as string;
    const inner = issue.errors?.[TARGET_KINDS.indexOf(kind as (typeof TARGET_KINDS)[number])]?.[0];
    if (inner !== undefined) {
      // The option's paths start at the kind's key (`webhook.url`).
      const path = (inner.path ?? []).map(String);
      if (path.length === 0) path.push(kind);
      if (inner.code === 'unrecognized_keys' && inner.keys?.[0] !== undefined) {
        return `${[...path, inner.keys[0]].join('.')}: is not a known field`;
      }
      return `${path.join('.')}: ${inner.message ?? 'is invalid'}`;
    }
  }
  if (keys.length === 0) return `names no target kind: give exactly one of ${KINDS}`;
  if (known.length > 1 || (known.length === 1 && keys.length > 1)) {
    return `has ${keys.map((k) => `"${k}"`).join(' and ')}: give exactly one of the target kinds ${KINDS}`;
  }
  const unknown = keys.find((k) => !known.includes(k)) as string;
  const guess = closestName(unknown, TARGET_KINDS);
  const hint = guess === undefined ? '' : ` (did you mean "${guess}"?)`;
  return `"${unknown}" is not a target kind${hint}; give exactly one of ${KINDS}`;
}

/** The message of an instant zod refused as an ISO datetime. */
export function instantMessage(issue: { input?: unknown }): string {
  const text = issue.input;
  if (typeof text === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text)) {
    // The instant must also have its seconds: the example adds them when they are missing.
    const full = /T\d{2}:\d{2}$/.test(text) ? `${text}:00` : text;
    return `"${text}" has no UTC offset: add Z or an offset, such as ${full}Z or ${full}+01:00`;
  }
  return 'must be an ISO-8601 instant with Z or an offset, such as 2026-01-05T09:00:00Z';
}
