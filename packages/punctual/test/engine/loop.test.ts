// The wake loop: a nudge for now runs the body at once (again after the round when one is running); a nudge
// for a later instant arms the timer for it, and one that comes while the body runs is kept and armed after
// the round (not a second round at once). Injected clock; the body is released by the test.

import { describe, expect, it } from 'vitest';
import { EventBus } from '../../src/events.js';
import { Loop } from '../../src/engine/loop.js';
import { TestClock, settle } from '../support/test-clock.js';

const T0 = Date.parse('2026-01-05T00:00:00.000Z');

/** A loop whose body records its start instants and, while `hold` is set, waits for `release()`. */
function recordedLoop(clock: TestClock) {
  const rounds: number[] = [];
  let release: (() => void) | undefined;
  let hold = false;
  const loop = new Loop(
    'test',
    clock,
    new EventBus(),
    async () => {
      rounds.push(clock.now());
      if (hold) await new Promise<void>((r) => (release = r));
      return null;
    },
    { maxSleepMs: 3_600_000, errorBackoffMs: 1000 },
  );
  return {
    loop,
    rounds,
    holdNext: () => (hold = true),
    finish: async () => {
      hold = false;
      release?.();
      await settle();
    },
  };
}

describe('loop', () => {
  it('a nudge for a later instant arms the timer for it', async () => {
    const clock = new TestClock(T0);
    const l = recordedLoop(clock);
    l.loop.start(T0 + 10_000);
    l.loop.nudge(T0 + 100);
    await clock.advance(99);
    expect(l.rounds).toEqual([]);
    await clock.advance(1);
    expect(l.rounds).toEqual([T0 + 100]);
    await l.loop.stop();
  });

  it('a nudge for a later instant while the body runs is armed after the round, not run at once', async () => {
    const clock = new TestClock(T0);
    const l = recordedLoop(clock);
    l.holdNext();
    l.loop.start();
    await settle();
    expect(l.rounds).toEqual([T0]);
    l.loop.nudge(T0 + 100);
    l.loop.nudge(T0 + 300);
    await l.finish();
    expect(l.rounds).toEqual([T0]);
    await clock.advance(99);
    expect(l.rounds).toEqual([T0]);
    await clock.advance(1);
    expect(l.rounds).toEqual([T0, T0 + 100]);
    await clock.advance(1_000);
    expect(l.rounds).toEqual([T0, T0 + 100]);
    await l.loop.stop();
  });

  it('a nudge for now while the body runs runs it again once the round ends', async () => {
    const clock = new TestClock(T0);
    const l = recordedLoop(clock);
    l.holdNext();
    l.loop.start();
    await settle();
    l.loop.nudge();
    l.loop.nudge();
    await l.finish();
    expect(l.rounds).toEqual([T0, T0]);
    await l.loop.stop();
  });
});
