// The one entry point from spec text to CompiledSpec: validates the zone, dispatches by form (@every, @at,
// @in, RRULE/DTSTART/FREQ=, cron nicknames and plain cron), applies the startAt/endAt bounds and rejects
// specs that can never fire. Pure: no I/O, no timers, and it never reads a clock (`now` comes in opts).

import { PunctualError } from '../../errors.js';
import { closestName } from '../did-you-mean.js';
import { compileAtSpec } from './at-spec.js';
import { resolveTimeZone } from './time-zone.js';
import type { CompileOptions, CompiledSpec, OnDropped, SpecKind } from './compiled-spec.js';
import { cronWithDst, type DetailedNext } from './cron-dst.js';
import { CRON_NICKNAMES, compileCronSpec } from './cron-spec.js';
import { describeCron } from './describe-cron.js';
import { DST_DEFAULTS, resolveDstChoice } from './dst-choice.js';
import { memoize } from './memoize.js';
import type { PreviewOccurrence } from './preview-note.js';
import { compileEverySpec } from './every-spec.js';
import { compileRruleSpec, type RruleSpec } from './rrule-spec.js';

/** The spec forms written with `@` besides the cron nicknames: `@every 1h`, `@at <instant>`, `@in 10m`. */
export const AT_FORMS = ['@every', '@at', '@in'] as const;

/**
 * Refuses a spec whose first word starts with `@` but is no form Punctual knows (`@evry 10s`), naming every
 * `@` form and suggesting the closest one for a likely typo. A nickname followed by more text is refused too.
 */
function checkAtWord(spec: string): void {
  const t = spec.trim();
  if (!t.startsWith('@')) return;
  const word = t.split(/\s+/)[0] as string;
  const lower = word.toLowerCase();
  if ((AT_FORMS as readonly string[]).includes(lower)) return;
  const nicknames = Object.keys(CRON_NICKNAMES);
  if (nicknames.includes(lower)) {
    if (t.length === word.length) return;
    throw new PunctualError(
      'SPEC_INVALID',
      `spec "${t}": the nickname ${word} is a whole spec; nothing may follow it`,
      { field: 'spec', part: 'nickname', value: word },
    );
  }
  const forms = `${AT_FORMS[0]} <duration>, ${AT_FORMS[1]} <instant>, ${AT_FORMS[2]} <duration> and the cron nicknames ${nicknames.join(' ')}`;
  const guess = closestName(word, [...AT_FORMS, ...nicknames]);
  const hint = guess === undefined ? '' : ` (did you mean ${guess}?)`;
  throw new PunctualError(
    'SPEC_INVALID',
    `spec "${t}": unknown form ${word}${hint}; the @ forms are ${forms}`,
    {
      field: 'spec',
      part: 'nickname',
      value: word,
      ...(guess === undefined ? {} : { suggestion: guess }),
    },
  );
}

/** Which form a spec text is written in (by its first word). */
export function specKindOf(spec: string): SpecKind {
  const t = spec.trim();
  if (/^@every(\s|$)/i.test(t)) return 'every';
  if (/^@(at|in)(\s|$)/i.test(t)) return 'at';
  if (/^(DTSTART|RRULE:|FREQ=|EXDATE|RDATE)/i.test(t)) return 'rrule';
  return 'cron';
}

function checkInstant(name: 'startAt' | 'endAt' | 'now' | 'anchor', v: number | null | undefined): void {
  if (v !== null && v !== undefined && !Number.isFinite(v)) {
    throw new PunctualError('SCHEDULE_INVALID', `${name} must be a finite instant in epoch milliseconds`, {
      field: name,
    });
  }
}

/** How many answers a shared cron search keeps (recentAnswers). */
const RECENT_ANSWERS = 8;

/**
 * A search that keeps its last few answers by instant: the schedules that share a cron spec and zone fired
 * together, so the materializer asks the same question once per schedule (a zoned cron search costs about
 * 30 µs). Answers told to an `onDropped` are searched again (the drops must be told). Answers are shared:
 * frozen, so no caller can change another's.
 */
function recentAnswers(search: DetailedNext): DetailedNext {
  const answers = new Map<number, PreviewOccurrence | null>();
  return (after, onDropped) => {
    if (onDropped !== undefined) return search(after, onDropped);
    let answer = answers.get(after);
    if (answer === undefined) {
      answer = search(after);
      if (answer !== null) Object.freeze(Object.freeze(answer).notes);
      if (answers.size >= RECENT_ANSWERS) answers.delete(answers.keys().next().value as number);
      answers.set(after, answer);
    }
    return answer;
  };
}

/** A cron spec's detailed search under a DST choice, shared by the schedules that have all four alike. */
const cronDetailed = memoize((expr: string, tz: string, gap: string, repeat: string): DetailedNext =>
  recentAnswers(
    cronWithDst(compileCronSpec(expr, tz), tz, {
      gap: gap as 'shift' | 'skip',
      repeat: repeat as 'first' | 'both',
    }),
  ),
);

/** At most this many candidates before startAt are told to an `onDropped` (`beforeStart`). */
export const MAX_BEFORE_START_DROPS = 100;

/**
 * Compiles a spec. Occurrences are those of the spec within [startAt, endAt] (both inclusive). Throws
 * SPEC_INVALID, DURATION_INVALID, TIME_ZONE_UNKNOWN, or SPEC_NEVER_FIRES when no occurrence lies at or
 * after max(now, startAt) within the bounds (a one-off `@at` in the past is accepted: it is due at once).
 */
export function compileSpec(spec: string, opts: CompileOptions): CompiledSpec {
  if (typeof spec !== 'string' || spec.trim() === '') {
    throw new PunctualError('SPEC_INVALID', 'spec must be a non-empty string', { field: 'spec' });
  }
  const tz = resolveTimeZone(opts.tz ?? 'UTC', { field: 'tz' });
  checkInstant('now', opts.now);
  checkInstant('anchor', opts.anchor);
  checkInstant('startAt', opts.startAt);
  checkInstant('endAt', opts.endAt);
  const startAt = opts.startAt ?? null;
  const endAt = opts.endAt ?? null;
  const kind = specKindOf(spec);
  const dst = resolveDstChoice(kind, opts.dst);

  let inner: { source: string; tz: string; description: string; nextDetailedAfter: DetailedNext };
  const plain =
    (nextAfter: (after: number) => number | null): DetailedNext =>
    (after) => {
      const t = nextAfter(after);
      return t === null ? null : { at: t, notes: [] };
    };
  let atInstant: number | undefined;
  let rrule: RruleSpec | undefined;
  if (kind === 'every') {
    const anchor = startAt ?? opts.anchor ?? opts.now;
    const every = compileEverySpec(spec, { anchor, includeAnchor: startAt !== null });
    inner = { ...every, tz, nextDetailedAfter: plain(every.nextAfter) };
  } else if (kind === 'at') {
    const at = compileAtSpec(spec, { tz, now: opts.now });
    atInstant = at.instant;
    inner = { ...at, tz, nextDetailedAfter: plain((after) => (at.instant > after ? at.instant : null)) };
  } else if (kind === 'rrule') {
    // Without a DTSTART line the series starts at startAt, else at the anchor (the creation instant).
    const r = compileRruleSpec(spec, {
      tz,
      dtstart: startAt ?? opts.anchor ?? opts.now,
      exact: startAt !== null,
      endAt,
      dst: dst ?? DST_DEFAULTS.rrule,
    });
    inner = r;
    rrule = r;
  } else {
    checkAtWord(spec);
    const c = compileCronSpec(spec, tz);
    const choice = dst ?? DST_DEFAULTS.cron;
    inner = {
      source: c.source,
      tz,
      nextDetailedAfter: cronDetailed(c.source, tz, choice.gap, choice.repeat),
      description: describeCron(c.source, tz),
    };
  }

  // The one search: nextAfter is this one without the details.
  const nextDetailedAfter = (after: number, onDropped?: OnDropped): PreviewOccurrence | null => {
    let from = after;
    if (startAt !== null && after < startAt) {
      if (onDropped !== undefined) {
        let t = after;
        for (let n = 0; n < MAX_BEFORE_START_DROPS; n++) {
          const o = inner.nextDetailedAfter(t);
          if (o === null || o.at >= startAt || o.at <= t) break;
          onDropped({ at: o.at, reason: 'beforeStart' });
          t = o.at;
        }
      }
      from = startAt - 1;
    }
    if (endAt !== null && from >= endAt) return null;
    const next = inner.nextDetailedAfter(from, onDropped);
    if (next === null) return null;
    if (endAt !== null && next.at > endAt) {
      onDropped?.({ at: next.at, reason: 'afterEnd' });
      return null;
    }
    return next;
  };
  const nextAfter = (after: number): number | null => nextDetailedAfter(after)?.at ?? null;

  // Messages quote the spec as the user wrote it (on one line), never the normalised source: an RRULE's
  // source carries a DTSTART the user may never have written, an @in its resolved instant.
  const shown = spec
    .trim()
    .split(/\s*\n\s*/)
    .join(' ');
  const compiled: CompiledSpec = {
    kind,
    source: inner.source,
    tz: inner.tz,
    nextAfter,
    nextDetailedAfter,
    dst,
    description: inner.description,
  };

  if (atInstant !== undefined) {
    if ((startAt !== null && atInstant < startAt) || (endAt !== null && atInstant > endAt)) {
      throw new PunctualError(
        'SPEC_NEVER_FIRES',
        `spec "${shown}" is due at ${new Date(atInstant).toISOString()}, outside startAt/endAt`,
        { field: 'spec', value: shown },
      );
    }
  } else if (opts.validate !== false) {
    const from = Math.max(opts.now, startAt ?? -Infinity);
    if (nextAfter(from - 1) === null) {
      const end = rrule?.lastSearchEnd();
      if (end === 'limit') {
        throw new PunctualError(
          'SPEC_INVALID',
          `spec "${shown}" is too sparse to evaluate: the recurrence library hit its iteration limit`,
          { field: 'spec', value: shown },
        );
      }
      // An RRULE search stops at a horizon: say so rather than claim there is none ever.
      const bounds = endAt !== null ? ' before endAt' : '';
      const when =
        rrule !== undefined &&
        end === 'horizon' &&
        (endAt === null || endAt > from + rrule.horizonYears * 365 * 86_400_000)
          ? `within the next ${rrule.horizonYears} years (the search horizon)`
          : `from now on${bounds}`;
      throw new PunctualError('SPEC_NEVER_FIRES', `spec "${shown}" has no occurrence ${when}`, {
        field: 'spec',
        value: shown,
      });
    }
  }
  return compiled;
}
