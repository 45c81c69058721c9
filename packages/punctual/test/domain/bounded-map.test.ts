// The bounded map under the caches: the oldest entry goes first (least recently used with refreshOnGet), the
// same order as dropping `keys().next()` on every insert, and a sweep of evictions walks each slot once.

import { describe, expect, it } from 'vitest';
import { BoundedMap } from '../../src/domain/bounded-map.js';

/** The straightforward version it replaces: a new iterator for every eviction. */
class NaiveMap<K, V> {
  readonly entries = new Map<K, V>();
  constructor(
    readonly capacity: number,
    readonly refresh: boolean,
  ) {}
  get(key: K): V | undefined {
    const v = this.entries.get(key);
    if (v !== undefined && this.refresh) {
      this.entries.delete(key);
      this.entries.set(key, v);
    }
    return v;
  }
  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as K);
  }
}

describe('BoundedMap', () => {
  it('drops the first written entry beyond capacity, a hit moving nothing by default', () => {
    const m = new BoundedMap<string, number>(2);
    m.set('a', 1);
    m.set('b', 2);
    expect(m.get('a')).toBe(1);
    m.set('c', 3);
    expect(m.get('a')).toBeUndefined();
    expect([m.get('b'), m.get('c'), m.size]).toEqual([2, 3, 2]);
  });

  it('with refreshOnGet drops the least recently used', () => {
    const m = new BoundedMap<string, number>(2, { refreshOnGet: true });
    m.set('a', 1);
    m.set('b', 2);
    expect(m.get('a')).toBe(1);
    m.set('c', 3);
    expect(m.get('b')).toBeUndefined();
    expect([m.get('a'), m.get('c'), m.size]).toEqual([1, 3, 2]);
  });

  it('rewriting a key makes it the newest, and capacity 0 keeps nothing', () => {
    const m = new BoundedMap<string, number>(2);
    m.set('a', 1);
    m.set('b', 2);
    m.set('a', 10);
    m.set('c', 3);
    expect([m.get('a'), m.get('b'), m.get('c')]).toEqual([10, undefined, 3]);
    const none = new BoundedMap<string, number>(0);
    none.set('a', 1);
    expect([none.size, none.get('a')]).toEqual([0, undefined]);
  });

  it('refuses a capacity that is not a whole number >= 0', () => {
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])
      expect(() => new BoundedMap(bad)).toThrow(/capacity must be a whole number >= 0/);
  });

  it('keeps the same entries in the same order as a new iterator per eviction, over random traffic', () => {
    for (const refresh of [false, true]) {
      for (const capacity of [1, 2, 3, 7, 64]) {
        const fast = new BoundedMap<number, number>(capacity, { refreshOnGet: refresh });
        const naive = new NaiveMap<number, number>(capacity, refresh);
        let seed = 12345;
        const next = (): number => (seed = (seed * 48271) % 2147483647);
        for (let i = 0; i < 10_000; i++) {
          const key = next() % (capacity * 3);
          if (next() % 2 === 0) {
            fast.set(key, i);
            naive.set(key, i);
          } else expect(fast.get(key)).toBe(naive.get(key));
          if (next() % 97 === 0) expect(fast.delete(key)).toBe(naive.entries.delete(key));
        }
        expect(fast.size).toBe(naive.entries.size);
        // Every key the naive map holds is held here too: same contents, and the same next evictions.
        for (const [k, v] of naive.entries) expect(fast.get(k)).toBe(v);
      }
    }
  });
});
