// A scheduler on an in-memory SQLite store and a TestClock, with every event recorded: the engine tests'
// common setup. `waitFor` resolves on an event instead of sleeping.

import { createScheduler, type Scheduler } from '../../src/scheduler.js';
import type { SchedulerOptions } from '../../src/options.js';
import { sqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { EventName, PunctualEvents } from '../../src/events.js';
import { TestClock, settle } from './test-clock.js';
import { nextEvent } from './events.js';

export interface Harness {
  clock: TestClock;
  s: Scheduler;
  log: { event: EventName; payload: unknown }[];
  of<E extends EventName>(event: E): PunctualEvents[E][];
  waitFor<E extends EventName>(
    event: E,
    match?: (p: PunctualEvents[E]) => boolean,
  ): Promise<PunctualEvents[E]>;
  /** Moves the clock in steps of `stepMs` until `p` settles (for waits on the engine clock); returns its value. */
  drive<T>(p: Promise<T>, stepMs?: number): Promise<T>;
  /** Yields to the engine until nothing is in flight and nothing is due at the current instant. */
  quiesce(): Promise<void>;
  close(): Promise<void>;
}

const ALL: EventName[] = [
  'run:scheduled',
  'run:started',
  'run:succeeded',
  'run:retrying',
  'run:checkAgain',
  'run:released',
  'run:dead',
  'run:skipped',
  'run:expired',
  'run:cancelled',
  'lease:reclaimed',
  'lease:lost',
  'schedule:notFired',
  'schedule:completed',
  'error',
];

export async function harness(
  opts: SchedulerOptions & { start?: string; noStart?: boolean; path?: string } = {},
): Promise<Harness> {
  const clock = new TestClock(opts.start ?? '2026-01-05T00:00:00.000Z');
  const store = opts.store ?? sqliteStore({ path: opts.path ?? ':memory:' });
  const s = createScheduler({ random: () => 0.5, ...opts, store, clock });
  const log: Harness['log'] = [];
  for (const e of ALL) s.on(e, (payload) => log.push({ event: e, payload }));
  if (!opts.noStart) await s.start();
  await settle();
  return {
    clock,
    s,
    log,
    of: <E extends EventName>(event: E) =>
      log.filter((l) => l.event === event).map((l) => l.payload as PunctualEvents[E]),
    waitFor: (event, match) => nextEvent(s, event, match),
    drive: async (p, stepMs = 1000) => {
      let done = false;
      const tracked = p.finally(() => (done = true));
      for (let i = 0; i < 10_000 && !done; i++) await clock.advance(stepMs);
      return tracked;
    },
    quiesce: async () => {
      for (let i = 0; i < 1000; i++) {
        await settle(2);
        const due = await s.store.nextRunDueAt();
        // Runs claimed ahead of their instant wait for the clock, as runs not claimed yet do.
        if (s.inFlight === s.heldAhead && (due === null || due > clock.now())) return;
      }
      throw new Error('the engine did not become idle');
    },
    close: async () => {
      // A graceful stop waits on the engine clock: move it past the grace period.
      let closed = false;
      const closing = s.close().then(() => (closed = true));
      for (let i = 0; i < 1000 && !closed; i++) await clock.advance(1000);
      await closing;
    },
  };
}

/** A promise the test resolves by hand: handlers await it to stay "in flight". */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

export const iso = (ms: number): string => new Date(ms).toISOString();
export const at = (text: string): number => Date.parse(text);
