// Calendar days: an all-day date as a day number (days since 1970-01-01) and back, and the local date of an
// instant in a zone. This module owns the date text form (YYYY-MM-DD) and day arithmetic; it must never read
// a clock or know about calendars or schedules.

import { zoneOffsets } from '../timing/zone-offsets.js';

const DAY = 86_400_000;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The day number of a YYYY-MM-DD date, or null when the text is not a real date. */
export function dayOfDate(text: string): number | null {
  const m = DATE_RE.exec(text);
  if (m === null) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  return ms / DAY;
}

/** The YYYY-MM-DD text of a day number. */
export function dateOfDay(day: number): string {
  return new Date(day * DAY).toISOString().slice(0, 10);
}

/** The day of the week of a day number: 0 Monday .. 6 Sunday. */
export function weekdayOfDay(day: number): number {
  // 1970-01-01 was a Thursday (3).
  return (((day + 3) % 7) + 7) % 7;
}

/** The local date (day number) of an instant in an IANA zone. */
export function localDayOf(t: number, tz: string): number {
  return Math.floor(zoneOffsets(tz).wall(t) / DAY);
}
