// Live data without a reload: a poller that runs a task, waits, and runs it again, one at a time, and stops
// while the tab is hidden (resuming at once when it is shown), plus the React hooks built on it. The poller
// takes its document and timers as arguments so tests drive it without a browser.

import { useCallback, useEffect, useRef, useState } from 'react';

export interface PollerDeps {
  /** Something with `hidden` and visibilitychange events (the document). */
  doc: Pick<Document, 'hidden' | 'addEventListener' | 'removeEventListener'>;
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

export interface Poller {
  /** Runs the task now (after the current run, if one is in flight) and restarts the wait. */
  refresh(): void;
  stop(): void;
}

function browserDeps(): PollerDeps {
  return {
    doc: document,
    setTimeout: (fn, ms) => window.setTimeout(fn, ms),
    clearTimeout: (h) => window.clearTimeout(h as number),
  };
}

/**
 * Runs `task` now and then `intervalMs` after each run finishes, never two at once. While `doc.hidden` no run
 * starts; when the document is shown again a run starts at once. `task` receives an AbortSignal that fires
 * on stop.
 */
export function createPoller(
  task: (signal: AbortSignal) => Promise<void>,
  intervalMs: number,
  deps: PollerDeps = browserDeps(),
): Poller {
  const abort = new AbortController();
  let timer: unknown = undefined;
  let running = false;
  let again = false;
  let stopped = false;

  const schedule = (): void => {
    if (timer !== undefined) deps.clearTimeout(timer);
    timer = undefined;
    if (stopped || deps.doc.hidden) return;
    timer = deps.setTimeout(() => {
      timer = undefined;
      void tick();
    }, intervalMs);
  };

  const tick = async (): Promise<void> => {
    if (stopped || deps.doc.hidden) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      await task(abort.signal);
    } catch {
      // The task reports its own errors; the poller keeps going.
    } finally {
      running = false;
    }
    if (again) {
      again = false;
      void tick();
    } else {
      schedule();
    }
  };

  const onVisibility = (): void => {
    if (deps.doc.hidden) {
      if (timer !== undefined) deps.clearTimeout(timer);
      timer = undefined;
    } else {
      void tick();
    }
  };

  deps.doc.addEventListener('visibilitychange', onVisibility);
  void tick();
  return {
    refresh() {
      if (timer !== undefined) deps.clearTimeout(timer);
      timer = undefined;
      void tick();
    },
    stop() {
      stopped = true;
      if (timer !== undefined) deps.clearTimeout(timer);
      deps.doc.removeEventListener('visibilitychange', onVisibility);
      abort.abort();
    },
  };
}

export interface Polled<T> {
  data: T | undefined;
  error: unknown;
  /** True until the first answer (or error). */
  loading: boolean;
  /** When data last arrived (epoch ms). */
  updatedAt: number | null;
  refresh: () => void;
}

/**
 * Loads `load()` and reloads it every `intervalMs` while the tab is visible; `deps` restart it (and clear the
 * data). `intervalMs` of 0 loads once.
 */
export function usePolling<T>(
  load: (signal: AbortSignal) => Promise<T>,
  intervalMs: number,
  deps: readonly unknown[],
): Polled<T> {
  const [state, setState] = useState<Omit<Polled<T>, 'refresh'>>({
    data: undefined,
    error: undefined,
    loading: true,
    updatedAt: null,
  });
  const pollerRef = useRef<Poller | null>(null);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    let live = true;
    setState({ data: undefined, error: undefined, loading: true, updatedAt: null });
    const poller = createPoller(
      async (signal) => {
        try {
          const data = await loadRef.current(signal);
          if (live) setState({ data, error: undefined, loading: false, updatedAt: Date.now() });
        } catch (e) {
          if (live && !signal.aborted) setState((s) => ({ ...s, error: e, loading: false }));
        }
      },
      intervalMs > 0 ? intervalMs : 2 ** 31 - 1,
    );
    pollerRef.current = poller;
    return () => {
      live = false;
      poller.stop();
    };
  }, [intervalMs, ...deps]); // `deps` is the caller's list

  const refresh = useCallback(() => pollerRef.current?.refresh(), []);
  return { ...state, refresh };
}

/** The current time, updated every `intervalMs` (for relative times such as "in 5 min"). */
export function useNow(intervalMs = 15_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = window.setInterval(() => {
      if (!document.hidden) setNow(Date.now());
    }, intervalMs);
    return () => window.clearInterval(id);
  }, [intervalMs]);
  return now;
}

/** The value, once it has stopped changing for `ms` (for previews while typing). */
export function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const id = window.setTimeout(() => setV(value), ms);
    return () => window.clearTimeout(id);
  }, [value, ms]);
  return v;
}

/** Maps `items` through `fn` with at most `limit` calls in flight; results keep the input order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
