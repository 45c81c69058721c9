// The one entry point from spec text to CompiledSpec: validates the zone, dispatches by form (@every, @at,
// @in, RRULE/DTSTART/FREQ=, cron nicknames and plain cron), applies the startAt/endAt bounds and rejects
// specs that can never fire. Pure: no I/O, no timers, and it never reads a clock (`now` comes in opts).

import { PunctualError } from '../../errors.js';
import { compileAtSpec } from './at-spec.js';
import { resolveTimeZone } from './time-zone.js';
import type { CompileOptions, CompiledSpec, SpecKind } from './compiled-spec.js';
import { compileCronSpec } from './cron-spec.js';
import { describeCron } from './describe-cron.js';
import { compileEverySpec } from './every-spec.js';
import { compileRruleSpec } from './rrule-spec.js';

/** Which form a spec text is written in (by its first word). */
export function specKindOf(spec: string): SpecKind {
  const t = spec.trim();
  if (/^@every(\s|$)/i.test(t)) return 'every';
  if (/^@(at|in)(\s|$)/i.test(t)) return 'at';
  if (/^(DTSTART|RRULE:|FREQ=|EXDATE)/i.test(t)) return 'rrule';
  return 'cron';
}

function checkInstant(name: 'startAt' | 'endAt' | 'now' | 'anchor', v: number | null | undefined): void {
  if (v !== null && v !== undefined && !Number.isFinite(v)) {
    throw new PunctualError('SCHEDULE_INVALID', `${name} must be a finite instant in epoch milliseconds`, {
      field: name,
    });
  }
}

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

  let inner: { source: string; tz: string; description: string; nextAfter(after: number): number | null };
  let atInstant: number | undefined;
  let hitLimit = (): boolean => false;
  if (kind === 'every') {
    const anchor = startAt ?? opts.anchor ?? opts.now;
    inner = { ...compileEverySpec(spec, { anchor, includeAnchor: startAt !== null }), tz };
  } else if (kind === 'at') {
    const at = compileAtSpec(spec, { tz, now: opts.now });
    atInstant = at.instant;
    inner = { ...at, tz, nextAfter: (after) => (at.instant > after ? at.instant : null) };
  } else if (kind === 'rrule') {
    // Without a DTSTART line the series starts at startAt, else at the anchor (the creation instant).
    const r = compileRruleSpec(spec, {
      tz,
      dtstart: startAt ?? opts.anchor ?? opts.now,
      exact: startAt !== null,
    });
    inner = r;
    hitLimit = r.lastSearchHitLimit;
  } else {
    const c = compileCronSpec(spec, tz);
    inner = { source: c.source, tz, nextAfter: c.nextAfter, description: describeCron(c.source, tz) };
  }

  const nextAfter = (after: number): number | null => {
    const from = startAt !== null && after < startAt ? startAt - 1 : after;
    if (endAt !== null && from >= endAt) return null;
    const next = inner.nextAfter(from);
    return next === null || (endAt !== null && next > endAt) ? null : next;
  };

  const shown = inner.source.replace(/\n/g, ' ');
  const compiled: CompiledSpec = {
    kind,
    source: inner.source,
    tz: inner.tz,
    nextAfter,
    description: inner.description,
  };

  if (atInstant !== undefined) {
    if ((startAt !== null && atInstant < startAt) || (endAt !== null && atInstant > endAt)) {
      throw new PunctualError('SPEC_NEVER_FIRES', `${shown} lies outside startAt/endAt`, {
        field: 'spec',
        value: compiled.source,
      });
    }
  } else if (opts.validate !== false) {
    const from = Math.max(opts.now, startAt ?? -Infinity);
    if (nextAfter(from - 1) === null) {
      if (hitLimit()) {
        throw new PunctualError(
          'SPEC_INVALID',
          `spec "${shown}" is too sparse to evaluate: the recurrence library hit its iteration limit`,
          { field: 'spec', value: compiled.source },
        );
      }
      const bounds = endAt !== null ? ' before endAt' : '';
      throw new PunctualError('SPEC_NEVER_FIRES', `spec "${shown}" has no occurrence from now on${bounds}`, {
        field: 'spec',
        value: compiled.source,
      });
    }
  }
  return compiled;
}
