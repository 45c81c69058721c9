// An override racing the claim of its occurrence's run, through the engine with the injected clock and a store
// whose calls the test holds at a gate: when the claim reaches the store first, the override is refused
// (OCCURRENCE_STARTED) and nothing of it is written, the run delivered once; when the override reaches it
// first, the run is skipped (or moved) and the claim (made claimAheadMs before the instant) finds nothing to
// deliver. Then free races at every
// interleaving of promise turns: one of them wins, never both. Runs in the zone of the schedule (Europe/Berlin)
// whatever the host's (npm run test:tz).

import { afterEach, describe, expect, it } from 'vitest';
import { isPunctualError } from '../../src/errors.js';
import { CLAIM_AHEAD_MS } from '../../src/options.js';
import { sqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { at, deferred, harness, iso, type Harness } from '../support/harness.js';
import { settle } from '../support/test-clock.js';

let h: Harness | undefined;
let release = (): void => {};
afterEach(async () => {
  release();
  await h?.close();
  h = undefined;
});

// 10:00 in Berlin (CET, +01:00) on Monday 5 January 2026.
const DUE = at('2026-01-05T09:00:00Z');
const START = '2026-01-05T08:59:55Z';

type Gate = 'claimRuns' | 'putOccurrenceOverride';

/** A store whose first `method` call made once the clock reached `from` waits until the test releases it. */
function gatedStore(method: Gate, now: () => number, from: number) {
  const inner = sqliteStore({ path: ':memory:' });
  const gate = deferred();
  const entered = deferred();
  let held = false;
  const store = new Proxy(inner, {
    get(target, prop, receiver) {
      const v: unknown = Reflect.get(target, prop, receiver);
      if (typeof v !== 'function') return v;
      const fn = (v as (...a: unknown[]) => Promise<unknown>).bind(target);
      if (prop !== method) return fn;
      return async (...args: unknown[]) => {
        if (!held && now() >= from) {
          held = true;
          entered.resolve();
          await gate.promise;
        }
        return fn(...args);
      };
    },
  }) as Store;
  release = () => gate.resolve();
  return { store, entered: entered.promise, release: () => gate.resolve() };
}

async function setup(gated?: Gate, from = DUE) {
  let clockNow = (): number => 0;
  const g = gated === undefined ? undefined : gatedStore(gated, () => clockNow(), from);
  h = await harness({ start: START, ...(g ? { store: g.store } : {}) });
  clockNow = () => h!.clock.now();
  const delivered: string[] = [];
  h.s.handle('t', (ctx) => {
    delivered.push(`${ctx.run.scheduleKey} ${iso(ctx.run.scheduledFor)}`);
  });
  return { h, g, delivered };
}

async function outcome(p: Promise<unknown>): Promise<'override' | string> {
  try {
    await p;
    return 'override';
  } catch (e) {
    if (isPunctualError(e)) return e.code;
    throw e;
  }
}

describe('an override racing the claim of its run', () => {
  it('the claim reaches the store first: the override is refused and writes nothing; the run is delivered once', async () => {
    const { h, g, delivered } = await setup('putOccurrenceOverride', at(START));
    await h.s.put({ key: 'r', spec: '0 10 * * *', tz: 'Europe/Berlin', target: { handler: 't' } });
    await h.clock.advance(1);
    expect(h.of('run:scheduled').map((e) => iso(e.run.scheduledFor))).toEqual([iso(DUE)]);
    // The override, made while the run is still scheduled, is on its way to the store; the claim passes it.
    const override = outcome(h.s.overrideOccurrence('r', iso(DUE), { kind: 'skip', note: 'late' }));
    await g!.entered;
    await h.clock.set(DUE);
    await h.quiesce();
    expect(h.of('run:succeeded')).toHaveLength(1);
    g!.release();
    expect(await override).toBe('OCCURRENCE_STARTED');
    expect(delivered).toEqual([`r ${iso(DUE)}`]);
    const id = (await h.s.require('r')).id;
    expect(await h.s.store.listOccurrenceOverrides('default', id, { from: 0, limit: 10 })).toEqual([]);
    expect(h.of('run:skipped')).toEqual([]);
  });

  it('the override reaches the store first: the run is skipped and the claim delivers nothing', async () => {
    // The claim that takes the run is made claimAheadMs before its instant.
    const { h, g, delivered } = await setup('claimRuns', DUE - CLAIM_AHEAD_MS);
    await h.s.put({ key: 'r', spec: '0 10 * * *', tz: 'Europe/Berlin', target: { handler: 't' } });
    await h.clock.advance(1);
    await h.clock.set(DUE - CLAIM_AHEAD_MS);
    // The worker's claim is on its way to the store; the override passes it.
    await g!.entered;
    expect(await outcome(h.s.overrideOccurrence('r', iso(DUE), { kind: 'skip', note: 'holiday' }))).toBe(
      'override',
    );
    g!.release();
    await h.quiesce();
    await h.clock.advance(60_000);
    await h.quiesce();
    expect(delivered).toEqual([]);
    const skipped = h.of('run:skipped').map((e) => e.run);
    expect(skipped.map((r) => [iso(r.scheduledFor), r.reason])).toEqual([[iso(DUE), 'override']]);
    expect(h.of('run:started')).toEqual([]);
  });

  it('free races at every interleaving: exactly one of the claim and the override wins', async () => {
    const { h, delivered } = await setup();
    const keys = Array.from({ length: 6 }, (_, i) => `free-${i}`);
    for (const key of keys) {
      await h.s.put({ key, spec: '0 10 * * *', tz: 'Europe/Berlin', target: { handler: 't' } });
    }
    await h.clock.advance(1);
    // Each override leaves after a different number of promise turns, while the clock reaches DUE and the
    // worker claims the runs that are due.
    const overrides = keys.map(async (key, i) => {
      await settle(i);
      return outcome(h.s.overrideOccurrence(key, iso(DUE), { kind: 'move', moveTo: '2026-01-05T12:00:00Z' }));
    });
    const [results] = await Promise.all([Promise.all(overrides), h.clock.set(DUE)]);
    await h.quiesce();
    await h.clock.set('2026-01-05T12:00:01Z');
    await h.quiesce();
    for (const [i, key] of keys.entries()) {
      const runs = delivered.filter((d) => d.startsWith(`${key} `));
      expect(['override', 'OCCURRENCE_STARTED']).toContain(results[i]);
      // Delivered once either way (the move keeps the occurrence); at 12:00 only when the override won.
      expect(runs).toEqual([`${key} ${iso(DUE)}`]);
      const started = h.of('run:started').filter((e) => e.run.scheduleKey === key);
      expect(started).toHaveLength(1);
      const when = started[0]!.run.dueAt;
      expect(iso(when)).toBe(results[i] === 'override' ? '2026-01-05T12:00:00.000Z' : iso(DUE));
    }
  });
});
