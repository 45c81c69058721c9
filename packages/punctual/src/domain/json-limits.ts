// The limits on JSON values that users hand to Punctual (schedule and trigger payloads, key-value values,
// handler results): how deep they may nest and how large they may be. This module owns the one bounded walk
// that checks a value before anything else walks it (JSON.stringify, stableJson, a store's encoder), so a
// value nested 200,000 deep gets the same clear answer on every Node version instead of depending on when
// the engine's stack runs out. Pure: no I/O, no clock; it never throws, callers turn a problem into their
// own error code.

/** Deepest nesting of arrays and objects a payload, a key-value value or a result may have. */
export const JSON_MAX_DEPTH = 64;

/** Largest payload (schedule or trigger), in UTF-8 bytes of its JSON text. */
export const PAYLOAD_MAX_BYTES = 256 * 1024;

export interface JsonProblem {
  /** `depth`: nested deeper than the limit; `type`: not JSON (a function, NaN, a cycle, a class instance). */
  kind: 'depth' | 'type';
  message: string;
}

export interface JsonCheckOptions {
  maxDepth?: number;
  /**
   * `skip`: an object member whose value is undefined is left out, as JSON.stringify does (payloads);
   * `refuse`: it is a problem (key-value values, which must round-trip exactly). Default `refuse`.
   */
  undefinedMembers?: 'skip' | 'refuse';
}

/**
 * The first reason `value` is not plain JSON within the depth limit, or null when it is. The walk stops at
 * the limit, so its own recursion is never deeper than `maxDepth` + 1 whatever the value.
 */
export function jsonProblem(value: unknown, opts: JsonCheckOptions = {}): JsonProblem | null {
  const maxDepth = opts.maxDepth ?? JSON_MAX_DEPTH;
  const skipUndefined = opts.undefinedMembers === 'skip';
  const seen = new Set<object>();
  const walk = (v: unknown, depth: number): JsonProblem | null => {
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return null;
    if (typeof v === 'number') {
      return Number.isFinite(v) ? null : { kind: 'type', message: 'numbers must be finite' };
    }
    if (typeof v !== 'object') return { kind: 'type', message: `${typeof v} is not` };
    if (depth >= maxDepth) return { kind: 'depth', message: `nested more than ${maxDepth} levels deep` };
    if (seen.has(v)) return { kind: 'type', message: 'it refers to itself' };
    seen.add(v);
    let found: JsonProblem | null = null;
    if (Array.isArray(v)) {
      for (const x of v) if ((found = walk(x, depth + 1)) !== null) break;
    } else {
      const proto: unknown = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) {
        found = { kind: 'type', message: 'only plain objects and arrays' };
      } else {
        for (const x of Object.values(v)) {
          if (x === undefined && skipUndefined) continue;
          if ((found = walk(x, depth + 1)) !== null) break;
        }
      }
    }
    seen.delete(v);
    return found;
  };
  return walk(value, 0);
}

/** UTF-8 bytes of a value's JSON text; call only after jsonProblem found none. */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? 'null', 'utf8');
}

/**
 * A handler's result as it is kept: itself, or `{ error: 'RESULT_TOO_LARGE', ... }` when it is nested deeper
 * than JSON_MAX_DEPTH (`maxDepth`) or larger than `maxBytes` as JSON (`bytes`, `limit`). The run still
 * succeeds; nothing walks a too-deep result.
 */
export function boundedResult<T>(result: T, maxBytes: number): T | Record<string, string | number> {
  if (jsonProblem(result, { undefinedMembers: 'skip' })?.kind === 'depth') {
    return { error: 'RESULT_TOO_LARGE', maxDepth: JSON_MAX_DEPTH };
  }
  const text = JSON.stringify(result);
  if (text === undefined || text.length <= maxBytes) return result;
  return { error: 'RESULT_TOO_LARGE', bytes: text.length, limit: maxBytes };
}
