// The prefetch buffer: due runs leave by priority, then instant, then claim order (a claim's own order, kept
// across claims), a run held ahead of its instant stays until then while a due one behind it leaves, the
// timer is armed for the earliest instant ahead and follows runs arriving and leaving, and a deep buffer (a
// minute boundary claimed ahead) keeps every answer while it is emptied from the front.

import { describe, expect, it } from 'vitest';
import { claimedFlight, type InFlight } from '../../src/engine/in-flight.js';
import { PrefetchBuffer } from '../../src/engine/prefetch-buffer.js';
import type { ClaimedRun } from '../../src/store/store.js';
import { runningRun, T0 } from '../support/fixtures.js';
import { TestClock } from '../support/test-clock.js';

function flight(id: number, dueAt: number, priority = 0): InFlight {
  const run = runningRun({ id: String(id), dueAt, scheduledFor: dueAt, priority });
  return claimedFlight({ run } as ClaimedRun, T0, 30_000);
}

/** A buffer on a test clock that counts its timer's calls. */
function buffer(): { b: PrefetchBuffer; clock: TestClock; fired: number[] } {
  const clock = new TestClock(T0);
  const fired: number[] = [];
  const b = new PrefetchBuffer(clock, () => fired.push(clock.now()));
  return { b, clock, fired };
}

const ids = (fs: (InFlight | undefined)[]): (string | undefined)[] => fs.map((f) => f?.claimed.run.id);

describe('PrefetchBuffer', () => {
  it('hands out due runs by instant and keeps runs held ahead until their instant', () => {
    const { b } = buffer();
    b.push(flight(1, T0 + 500)); // ahead
    b.push(flight(2, T0)); // due, behind a run held ahead
    b.push(flight(3, T0 - 10)); // due earlier, claimed later
    b.push(flight(4, T0)); // due with 2, claimed after it
    expect(ids([b.shiftDue(T0), b.shiftDue(T0), b.shiftDue(T0), b.shiftDue(T0)])).toEqual([
      '3',
      '2',
      '4',
      undefined,
    ]);
    expect(b.length).toBe(1);
    expect(ids([b.shiftDue(T0 + 500), b.shiftDue(T0 + 500)])).toEqual(['1', undefined]);
    expect(b.length).toBe(0);
  });

  it('starts a due run of higher priority first, whichever claim brought it', () => {
    const { b } = buffer();
    b.push(flight(1, T0 + 100, -5)); // claimed ahead, one claim at a time as each came into the window
    b.push(flight(2, T0 + 100, 0));
    b.push(flight(3, T0 + 100, 10));
    b.push(flight(4, T0 - 50, 0)); // overdue, claimed last
    expect(ids([b.shiftDue(T0)])).toEqual(['4']);
    expect(ids([b.shiftDue(T0 + 100), b.shiftDue(T0 + 100), b.shiftDue(T0 + 100)])).toEqual(['3', '2', '1']);
  });

  it('gives back the runs that would start last, and keeps the rest in order', () => {
    const { b } = buffer();
    for (let i = 1; i <= 5; i++) b.push(flight(i, T0 + i));
    b.push(flight(6, T0 + 1, 5));
    expect(ids(b.takeNewest(2))).toEqual(['4', '5']);
    expect(ids([b.shiftDue(T0 + 10), b.shiftDue(T0 + 10), b.shiftDue(T0 + 10), b.shiftDue(T0 + 10)])).toEqual(
      ['6', '1', '2', '3'],
    );
  });

  it('arms its timer for the earliest instant ahead and follows arrivals and departures', async () => {
    const { b, clock, fired } = buffer();
    b.push(flight(1, T0 + 300));
    b.push(flight(2, T0 + 100));
    b.armFor(T0);
    b.push(flight(3, T0 + 50)); // earlier than the armed instant
    b.armFor(T0);
    await clock.advance(60);
    expect(fired).toEqual([T0 + 50]);
    expect(ids([b.shiftDue(clock.now())])).toEqual(['3']);
    b.armFor(clock.now());
    // The run at the armed instant leaves before it: the timer moves to the next one.
    expect(ids(b.takeWhere((f) => f.claimed.run.id === '2'))).toEqual(['2']);
    b.armFor(clock.now());
    await clock.advance(200);
    expect(fired).toEqual([T0 + 50]);
    await clock.advance(100);
    expect(fired).toEqual([T0 + 50, T0 + 300]);
    b.disarm();
  });

  it('stays right when deep: a boundary of 20,000 runs claimed ahead, then emptied from the front', async () => {
    const { b, clock, fired } = buffer();
    const boundary = T0 + 1000;
    for (let i = 1; i <= 20_000; i++) b.push(flight(i, boundary));
    b.push(flight(20_001, boundary + 60_000)); // the next boundary's first run
    b.armFor(T0);
    expect(b.shiftDue(T0)).toBeUndefined();
    await clock.set(boundary);
    expect(fired).toEqual([boundary]);
    const out: string[] = [];
    for (let f = b.shiftDue(boundary); f !== undefined; f = b.shiftDue(boundary)) {
      out.push(f.claimed.run.id);
      b.armFor(boundary);
    }
    expect(out).toHaveLength(20_000);
    expect(out[0]).toBe('1');
    expect(out[19_999]).toBe('20000');
    expect(new Set(out).size).toBe(20_000);
    expect(b.length).toBe(1);
    expect(b.nextUnreportedDue()).toBe(boundary + 60_000);
    await clock.set(boundary + 60_000);
    expect(fired).toEqual([boundary, boundary + 60_000]);
    expect(ids(b.takeAll())).toEqual(['20001']);
  });

  it('reports runs not started within the grace once each, and takes them all when the worker stops', () => {
    const { b } = buffer();
    b.push(flight(1, T0 - 5000));
    b.push(flight(2, T0));
    expect(b.takeUnstarted(T0, 1000).map((r) => r.id)).toEqual(['1']);
    expect(b.takeUnstarted(T0, 1000)).toEqual([]);
    expect(b.nextUnreportedDue()).toBe(T0);
    expect(ids(b.takeAll())).toEqual(['1', '2']);
    expect(b.length).toBe(0);
  });
});
