// A spec compiler remembered for one batch of saves (a bulk put): each distinct (spec, zone, DST choice,
// bounds, anchor, now) is compiled once, and its result or its error handed to every schedule that shares it.
// Pure: no I/O and no clock; it must never outlive the load it was made for.

import type { CompileOptions, CompiledSpec } from './compiled-spec.js';
import { compileSpec, specKindOf } from './compile-spec.js';

/** What compiles a spec: compileSpec itself, or a batch's remembered one. */
export type SpecCompiler = (spec: string, opts: CompileOptions) => CompiledSpec;

/**
 * compileSpec remembered by its arguments, errors included (the same input fails the same way). A cron
 * ignores the anchor, and without an endAt its result and its verdict do not depend on `now` either (it
 * recurs for ever or never), so those share one entry across the whole load; every other form is keyed by
 * its exact arguments.
 */
export function batchSpecCompiler(): SpecCompiler {
  const results = new Map<string, { spec: CompiledSpec } | { error: unknown }>();
  return (spec, opts) => {
    const key = keyOf(spec, opts);
    if (key === undefined) return compileSpec(spec, opts);
    let hit = results.get(key);
    if (hit === undefined) {
      try {
        hit = { spec: lastAnswerKept(compileSpec(spec, opts)) };
      } catch (error) {
        hit = { error };
      }
      results.set(key, hit);
    }
    if ('error' in hit) throw hit.error;
    return hit.spec;
  };
}

/** The memo key, or undefined for arguments not worth remembering (not strings, or an odd DST value). */
function keyOf(spec: string, o: CompileOptions): string | undefined {
  if (typeof spec !== 'string' || (o.tz !== undefined && typeof o.tz !== 'string')) return undefined;
  let dst: string;
  try {
    dst = JSON.stringify(o.dst ?? null);
  } catch {
    return undefined;
  }
  const cron = specKindOf(spec) === 'cron';
  const now = cron && (o.endAt ?? null) === null ? '' : String(o.now);
  const anchor = cron ? '' : String(o.anchor);
  return [spec, o.tz ?? '', now, anchor, o.startAt ?? '', o.endAt ?? '', o.validate ?? '', dst].join(
    '\u0000',
  );
}

/**
 * The compiled spec with its last `nextAfter` answer kept: the schedules of a batch that share a spec all
 * ask for the first occurrence after the same instant, so the search runs once (it is a pure function).
 */
function lastAnswerKept(spec: CompiledSpec): CompiledSpec {
  let asked: number | undefined;
  let answer: number | null = null;
  const nextAfter = (after: number): number | null => {
    if (after !== asked) {
      answer = spec.nextAfter(after);
      asked = after;
    }
    return answer;
  };
  return { ...spec, nextAfter };
}
