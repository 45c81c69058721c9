// What the engine does while its database is unusable: every loop round fails, the engine reports one
// outage (`database:unavailable`, `scheduler.databaseOutage`) with its kind, backs off and retries, and when
// the database accepts writes again it reports the outage's length (`database:available`) and catches up: a
// run due during the outage runs once. Errors that are not an outage start none.

import { afterEach, describe, expect, it } from 'vitest';
import { DatabaseHealth } from '../../src/engine/database-health.js';
import { EventBus } from '../../src/events.js';
import { sqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { harness, type Harness } from '../support/harness.js';
import { TestClock } from '../support/test-clock.js';

const err = (code: string) => Object.assign(new Error(`failed: ${code}`), { code });

/** A store whose every call fails with `fault.error` while it is set. */
function faultyStore(fault: { error: Error | null }): Store {
  const inner = sqliteStore({ path: ':memory:' });
  return new Proxy(inner, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== 'function' || prop === 'close') return value;
      return (...args: unknown[]) => {
        if (fault.error) return Promise.reject(fault.error);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('a database outage', () => {
  it('is reported once with its kind, retried with back-off, and ended with its length', async () => {
    const fault: { error: Error | null } = { error: null };
    h = await harness({ store: faultyStore(fault) });
    const ran: string[] = [];
    h.s.handle('job', (ctx) => void ran.push(ctx.run.occurrenceId));
    const t0 = h.clock.now();
    await h.s.put({
      key: 'k',
      spec: `@at ${new Date(t0 + 5_000).toISOString()}`,
      target: { handler: 'job' },
    });

    fault.error = err('25006');
    const unavailable = await h.drive(h.waitFor('database:unavailable'), 500);
    expect(unavailable.kind).toBe('readOnly');
    expect(h.s.databaseOutage).toMatchObject({ kind: 'readOnly', since: unavailable.since });
    // Past the due time, still failing: one outage, nothing ran.
    const downs: unknown[] = [];
    h.s.on('database:unavailable', (p) => downs.push(p));
    for (let i = 0; i < 20; i++) await h.clock.advance(1000);
    expect(downs).toEqual([]);
    expect(ran).toEqual([]);
    expect(h.s.databaseOutage?.kind).toBe('readOnly');

    const succeeded = h.waitFor('run:succeeded');
    fault.error = null;
    const up = await h.drive(h.waitFor('database:available'), 500);
    expect(up.kind).toBe('readOnly');
    expect(up.since).toBe(unavailable.since);
    expect(up.durationMs).toBeGreaterThanOrEqual(20_000);
    expect(h.s.databaseOutage).toBeNull();
    await h.drive(succeeded, 500);
    expect(ran).toHaveLength(1);
  });
});

describe('DatabaseHealth', () => {
  it('starts no outage for errors that are not one, and ends it only when every failing loop recovered', async () => {
    const clock = new TestClock('2026-01-05T00:00:00.000Z');
    const bus = new EventBus();
    const health = new DatabaseHealth(clock, bus);
    const seen: string[] = [];
    bus.on('database:unavailable', ({ kind }) => seen.push(`down ${kind}`));
    bus.on('database:available', ({ durationMs }) => seen.push(`up ${durationMs}`));

    bus.emit('error', { error: err('23505'), where: 'worker' });
    bus.emit('error', { error: new Error('listener threw'), where: 'listener for run:started' });
    expect(health.outage).toBeNull();

    bus.emit('error', { error: err('ECONNREFUSED'), where: 'worker' });
    bus.emit('error', { error: err('57P01'), where: 'materializer' });
    bus.emit('error', { error: err('25006'), where: 'worker' });
    expect(health.outage).toMatchObject({ kind: 'readOnly', where: 'worker' });
    await clock.set(clock.now() + 3_000);
    bus.emit('loop:recovered', { where: 'worker' });
    expect(health.outage).not.toBeNull();
    bus.emit('loop:recovered', { where: 'materializer' });
    expect(health.outage).toBeNull();
    expect(seen).toEqual(['down unreachable', 'up 3000']);
  });
});
