// A bounded memo for pure functions of strings (cron compilation and descriptions), so saving thousands of
// schedules that share a spec compiles it once. Pure: no I/O, no clock; a thrown error is not remembered.

import { BoundedMap } from '../bounded-map.js';

/** `fn` remembered by its arguments, at most `capacity` results (the oldest entry goes first). */
export function memoize<A extends string[], R>(fn: (...args: A) => R, capacity = 1000): (...args: A) => R {
  const results = new BoundedMap<string, R>(capacity);
  return (...args: A): R => {
    const key = args.join('\u0000');
    const hit = results.get(key);
    if (hit !== undefined) return hit;
    const value = fn(...args);
    results.set(key, value);
    return value;
  };
}
