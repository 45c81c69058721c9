// A bounded memo for pure functions of strings (cron compilation and descriptions), so saving thousands of
// schedules that share a spec compiles it once. Pure: no I/O, no clock; a thrown error is not remembered.

/** `fn` remembered by its arguments, at most `capacity` results (the oldest entry goes first). */
export function memoize<A extends string[], R>(fn: (...args: A) => R, capacity = 1000): (...args: A) => R {
  const results = new Map<string, R>();
  return (...args: A): R => {
    const key = args.join('\u0000');
    const hit = results.get(key);
    if (hit !== undefined) return hit;
    const value = fn(...args);
    if (results.size >= capacity) {
      const oldest = results.keys().next();
      if (oldest.done !== true) results.delete(oldest.value);
    }
    results.set(key, value);
    return value;
  };
}
