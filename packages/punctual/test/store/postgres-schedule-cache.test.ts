// The PostgreSQL store's cache of parsed schedules: one version per id, least recently used out first, and a
// default bound that holds a minute boundary of a million hourly schedules, filled in due order by the
// materializer and read back in the same order by the claims.

import { describe, expect, it } from 'vitest';
import type { Schedule } from '../../src/domain/schedule.js';
import { ScheduleCache } from '../../src/store/postgres/postgres-schedule-cache.js';
import { postgresStore } from '../../src/store/postgres/postgres-store.js';

const sched = (id: number, version = 1): Schedule => ({ id: String(id), version }) as Schedule;

describe('schedule cache', () => {
  it('serves only the version it holds, and keeps one version per id', () => {
    const cache = new ScheduleCache(10);
    cache.set(sched(1, 1));
    expect(cache.get('1', 1)?.version).toBe(1);
    expect(cache.get('1', 2)).toBeUndefined();
    cache.set(sched(1, 2));
    expect(cache.get('1', 1)).toBeUndefined();
    expect(cache.get('1', 2)?.version).toBe(2);
    expect(cache.size).toBe(1);
  });

  it('evicts the least recently used entry beyond its capacity', () => {
    const cache = new ScheduleCache(2);
    cache.set(sched(1));
    cache.set(sched(2));
    expect(cache.get('1', 1)).toBeDefined(); // 1 is now the most recently used
    cache.set(sched(3));
    expect(cache.get('2', 1)).toBeUndefined();
    expect(cache.get('1', 1)).toBeDefined();
    expect(cache.get('3', 1)).toBeDefined();
    expect(cache.size).toBe(2);
  });

  it('by default holds the 16,667 schedules of a minute boundary of a million hourly schedules', () => {
    const cache = new ScheduleCache();
    const boundary = 16_667;
    // The materializer caches the next minute while the claims read the current one.
    for (let i = 0; i < 2 * boundary; i++) cache.set(sched(i));
    let hits = 0;
    for (let i = 0; i < boundary; i++) if (cache.get(String(i), 1) !== undefined) hits++;
    expect(hits).toBe(boundary);
  });

  it('with a bound below the boundary, filled and read in the same order, misses every time', () => {
    // Why the bound matters: least-recently-used eviction under a cyclic pattern larger than the cache.
    const cache = new ScheduleCache(10_000);
    for (let i = 0; i < 16_667; i++) cache.set(sched(i));
    let hits = 0;
    for (let i = 0; i < 16_667; i++) {
      if (cache.get(String(i), 1) !== undefined) hits++;
      else cache.set(sched(i)); // a claim caches what it had to read
    }
    expect(hits).toBe(0);
  });

  it('is bounded by postgresStore scheduleCacheSize, which must be a whole number >= 0', () => {
    const url = 'postgres://nobody@127.0.0.1:1/none'; // never connected: the options are checked first
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => postgresStore({ connectionString: url, scheduleCacheSize: bad })).toThrow(
        /scheduleCacheSize must be a whole number >= 0/,
      );
    }
    expect(() => postgresStore({ connectionString: url, scheduleCacheSize: 0 })).not.toThrow();
    const none = new ScheduleCache(0);
    none.set(sched(1));
    expect(none.size).toBe(0);
  });
});
