// Small React hooks for time on screen: the current time, refreshed while the tab is visible (for relative
// times such as "in 5 min"), and a value debounced while it is typed. No data loading here (see query.ts).

import { useEffect, useState } from 'react';

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
