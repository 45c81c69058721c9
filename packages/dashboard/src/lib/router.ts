// Client-side routes on the History API: which page a path shows (`matchRoute`, pure), the paths of each
// page (`paths`), navigation, and hooks reading the location and its query string. The service answers every
// path listed in CLIENT_ROUTE_PREFIXES with index.html, so each page has a URL that survives a reload.

import { useCallback, useSyncExternalStore } from 'react';

export type Route =
  | { name: 'schedules' }
  | { name: 'scheduleNew' }
  | { name: 'schedule'; key: string }
  | { name: 'scheduleEdit'; key: string }
  | { name: 'runs' }
  | { name: 'run'; id: string }
  | { name: 'calendars' }
  | { name: 'calendar'; calendar: string }
  | { name: 'health' }
  | { name: 'notFound' };

const enc = encodeURIComponent;

/** Paths of the pages. A schedule key never contains `/`, and never starts with `-`. */
export const paths = {
  schedules: (): string => '/schedules',
  scheduleNew: (): string => '/new',
  schedule: (key: string): string => `/schedules/${enc(key)}`,
  scheduleEdit: (key: string): string => `/schedules/${enc(key)}/edit`,
  runs: (query?: Record<string, string>): string =>
    `/runs${query && Object.keys(query).length > 0 ? `?${new URLSearchParams(query).toString()}` : ''}`,
  run: (id: string): string => `/runs/${enc(id)}`,
  calendars: (): string => '/calendars',
  calendar: (name: string, tab?: 'history'): string =>
    `/calendars/${enc(name)}${tab === undefined ? '' : `?tab=${tab}`}`,
  health: (): string => '/health',
};

function decode(part: string): string | null {
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}

/** The page a path shows. `/` shows the schedules. */
export function matchRoute(pathname: string): Route {
  const parts = pathname.replace(/\/+$/, '').split('/').slice(1);
  const [a, b, c, ...rest] = parts;
  if (rest.length > 0) return { name: 'notFound' };
  if (a === undefined || a === '') return { name: 'schedules' };
  if (a === 'new' && b === undefined) return { name: 'scheduleNew' };
  if (a === 'health' && b === undefined) return { name: 'health' };
  if (a === 'schedules') {
    if (b === undefined) return { name: 'schedules' };
    const key = decode(b);
    if (key === null || key === '') return { name: 'notFound' };
    if (c === undefined) return { name: 'schedule', key };
    if (c === 'edit') return { name: 'scheduleEdit', key };
    return { name: 'notFound' };
  }
  if (a === 'calendars') {
    if (b === undefined) return { name: 'calendars' };
    const calendar = decode(b);
    if (calendar === null || calendar === '' || c !== undefined) return { name: 'notFound' };
    return { name: 'calendar', calendar };
  }
  if (a === 'runs') {
    if (b === undefined) return { name: 'runs' };
    const id = decode(b);
    if (id === null || id === '' || c !== undefined) return { name: 'notFound' };
    return { name: 'run', id };
  }
  return { name: 'notFound' };
}

const NAVIGATE = 'punctual:navigate';

export function navigate(to: string, opts: { replace?: boolean } = {}): void {
  if (opts.replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  window.dispatchEvent(new Event(NAVIGATE));
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange);
  window.addEventListener(NAVIGATE, onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener(NAVIGATE, onChange);
  };
}

const snapshot = (): string => `${location.pathname}${location.search}`;

/** The current path and query string; re-renders on navigation. */
export function useLocation(): { pathname: string; search: string } {
  const href = useSyncExternalStore(subscribe, snapshot, () => '/');
  const q = href.indexOf('?');
  return q < 0 ? { pathname: href, search: '' } : { pathname: href.slice(0, q), search: href.slice(q) };
}

/**
 * The query string as a record, and a setter that merges a patch into it (empty values are removed) and
 * replaces the history entry, so filters survive a reload without filling the back button.
 */
export function useQuery(): [Record<string, string>, (patch: Record<string, string | undefined>) => void] {
  const { pathname, search } = useLocation();
  const query = Object.fromEntries(new URLSearchParams(search));
  const setQuery = useCallback(
    (patch: Record<string, string | undefined>) => {
      const next = new URLSearchParams(location.search);
      for (const [k, v] of Object.entries(patch)) {
        if (v === undefined || v === '') next.delete(k);
        else next.set(k, v);
      }
      const s = next.toString();
      navigate(`${pathname}${s === '' ? '' : `?${s}`}`, { replace: true });
    },
    [pathname],
  );
  return [query, setQuery];
}
