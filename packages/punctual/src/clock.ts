// The one source of time for the engine. Domain functions never read a clock; the engine reads this one and
// passes `now` down. `systemClock` is real time; tests inject `TestClock` (test support) to run months in
// milliseconds. A Clock must never be read inside the domain or the store.

export type CancelTimer = () => void;

export interface Clock {
  /** Current instant, epoch milliseconds. */
  now(): number;
  /** Calls `fn` once when the clock reaches `at` (epoch ms). Returns a function that cancels it. */
  setTimer(at: number, fn: () => void): CancelTimer;
}

/** Largest delay Node's timers accept; longer waits are chained. */
const MAX_TIMER_MS = 2_147_483_647;

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(at, fn) {
    let handle: NodeJS.Timeout;
    const arm = (): void => {
      const delay = at - Date.now();
      if (delay > MAX_TIMER_MS) {
        handle = setTimeout(arm, MAX_TIMER_MS);
      } else {
        handle = setTimeout(fn, Math.max(0, delay));
      }
    };
    arm();
    return () => clearTimeout(handle);
  },
};

/** A clock shifted by a fixed offset (e.g. the measured offset to a database server). */
export function offsetClock(base: Clock, offsetMs: () => number): Clock {
  return {
    now: () => base.now() + offsetMs(),
    setTimer: (at, fn) => base.setTimer(at - offsetMs(), fn),
  };
}
