// Client-side routes: every page's path maps back to that page, keys with any allowed character survive
// the round trip, and unknown paths are not found.
import { describe, expect, it } from 'vitest';
import { matchRoute, paths } from '../src/lib/router.ts';

describe('matchRoute', () => {
  it('maps each page path back to its page', () => {
    expect(matchRoute('/')).toEqual({ name: 'schedules' });
    expect(matchRoute(paths.schedules())).toEqual({ name: 'schedules' });
    expect(matchRoute(paths.scheduleNew())).toEqual({ name: 'scheduleNew' });
    expect(matchRoute(paths.runs())).toEqual({ name: 'runs' });
    expect(matchRoute(paths.health())).toEqual({ name: 'health' });
    expect(matchRoute(paths.run('r_01H'))).toEqual({ name: 'run', id: 'r_01H' });
    expect(matchRoute(paths.calendars())).toEqual({ name: 'calendars' });
    expect(matchRoute(paths.calendar('de-holidays'))).toEqual({ name: 'calendar', calendar: 'de-holidays' });
    expect(matchRoute('/calendars/a/b')).toEqual({ name: 'notFound' });
  });

  it('round-trips keys with every allowed character', () => {
    for (const key of ['reports.monthly', 'check-shipped:order-42@eu', 'new', 'edit', '_x']) {
      expect(matchRoute(paths.schedule(key))).toEqual({ name: 'schedule', key });
      expect(matchRoute(paths.scheduleEdit(key))).toEqual({ name: 'scheduleEdit', key });
    }
  });

  it('tolerates a trailing slash and refuses the rest', () => {
    expect(matchRoute('/schedules/')).toEqual({ name: 'schedules' });
    expect(matchRoute('/schedules/a/b')).toEqual({ name: 'notFound' });
    expect(matchRoute('/schedules/a/edit/x')).toEqual({ name: 'notFound' });
    expect(matchRoute('/schedules/%E0%A4%A')).toEqual({ name: 'notFound' });
    expect(matchRoute('/v1')).toEqual({ name: 'notFound' });
  });

  it('builds run filters into the query string', () => {
    expect(paths.runs({ schedule: 'a.b', state: 'dead' })).toBe('/runs?schedule=a.b&state=dead');
  });
});
