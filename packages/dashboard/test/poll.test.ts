// The poller behind live pages: one run at a time, a pause while the tab is hidden, an immediate run when it
// is shown again, and nothing after stop. Driven with a fake document and fake timers.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPoller, mapLimit, type PollerDeps } from '../src/lib/poll.ts';

class FakeDoc {
  hidden = false;
  readonly listeners = new Set<() => void>();
  addEventListener(_type: string, fn: () => void): void {
    this.listeners.add(fn);
  }
  removeEventListener(_type: string, fn: () => void): void {
    this.listeners.delete(fn);
  }
  set(hidden: boolean): void {
    this.hidden = hidden;
    for (const fn of this.listeners) fn();
  }
}

function deps(doc: FakeDoc): PollerDeps {
  return {
    doc: doc as unknown as PollerDeps['doc'],
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
  };
}

describe('createPoller', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('runs at once, then every interval after each run', async () => {
    const doc = new FakeDoc();
    const task = vi.fn(async () => {});
    const p = createPoller(task, 1000, deps(doc));
    await vi.advanceTimersByTimeAsync(0);
    expect(task).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(task).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(task).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(3000);
    expect(task).toHaveBeenCalledTimes(5);
    p.stop();
  });

  it('stops while hidden and runs as soon as the tab is shown', async () => {
    const doc = new FakeDoc();
    const task = vi.fn(async () => {});
    const p = createPoller(task, 1000, deps(doc));
    await vi.advanceTimersByTimeAsync(0);
    doc.set(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(task).toHaveBeenCalledTimes(1);
    doc.set(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(task).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1000);
    expect(task).toHaveBeenCalledTimes(3);
    p.stop();
  });

  it('never overlaps a slow task, and a refresh during a run runs once more after it', async () => {
    const doc = new FakeDoc();
    let inFlight = 0;
    let most = 0;
    const task = vi.fn(async () => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, 5000));
      inFlight--;
    });
    const p = createPoller(task, 1000, deps(doc));
    await vi.advanceTimersByTimeAsync(100);
    p.refresh();
    p.refresh();
    await vi.advanceTimersByTimeAsync(4900);
    expect(task).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(5000);
    expect(most).toBe(1);
    p.stop();
  });

  it('keeps polling after a failing task and ends on stop, aborting the signal', async () => {
    const doc = new FakeDoc();
    let signal: AbortSignal | undefined;
    const task = vi.fn(async (s: AbortSignal) => {
      signal = s;
      throw new Error('down');
    });
    const p = createPoller(task, 1000, deps(doc));
    await vi.advanceTimersByTimeAsync(1000);
    expect(task).toHaveBeenCalledTimes(2);
    p.stop();
    expect(signal?.aborted).toBe(true);
    expect(doc.listeners.size).toBe(0);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(task).toHaveBeenCalledTimes(2);
  });
});

describe('mapLimit', () => {
  it('keeps order and the limit', async () => {
    let inFlight = 0;
    let most = 0;
    const out = await mapLimit([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, (7 - n) * 2));
      inFlight--;
      return n * 10;
    });
    expect(out).toEqual([10, 20, 30, 40, 50, 60, 70]);
    expect(most).toBe(3);
  });
});
