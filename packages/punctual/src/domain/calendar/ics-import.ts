// Reads the all-day events of an iCalendar (.ics) text, such as a public-holiday feed, into calendar dates:
// DTSTART;VALUE=DATE with an exclusive DTEND (or a DURATION of days), multi-day events as ranges, yearly
// RRULEs expanded over a bounded horizon (with EXDATE), SUMMARY kept as the label, folded lines joined.
// Events with a time of day, and recurrences other than yearly, are left out and reported. This module owns
// the parsing only; it must never perform I/O or read a clock (`from` is given).

import { PunctualError } from '../../errors.js';
import { dateOfDay, dayOfDate } from './calendar-day.js';
import type { CalendarDateInput } from './calendar.js';

/** The largest .ics text accepted, in UTF-8 bytes. */
export const ICS_MAX_BYTES = 1_048_576;
/** A yearly event is expanded over this many years from `from` (and the year of `from` itself). */
export const ICS_DEFAULT_HORIZON_YEARS = 5;
export const ICS_MAX_HORIZON_YEARS = 50;

export interface IcsImport {
  /** Dates and ranges, sorted; events on the same days are merged, their labels joined with " / ". */
  dates: CalendarDateInput[];
  /** The feed's X-WR-TIMEZONE, when it names one. */
  tz: string | null;
  /** Events left out, with why (a time of day, a recurrence other than yearly, no DTSTART). */
  skipped: { summary: string | null; why: string }[];
}

function invalid(message: string, details: Record<string, unknown> = {}): PunctualError {
  return new PunctualError('CALENDAR_ICS_INVALID', message, { field: 'ics', ...details });
}

interface Prop {
  name: string;
  params: Record<string, string>;
  value: string;
}

/** Joins folded lines (a line starting with a space or tab continues the one before) and splits them. */
export function unfoldIcs(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\r\n|\n|\r/)) {
    if ((line.startsWith(' ') || line.startsWith('\t')) && out.length > 0)
      out[out.length - 1] += line.slice(1);
    else if (line !== '') out.push(line);
  }
  return out;
}

function parseProp(line: string): Prop {
  const colon = line.indexOf(':');
  const head = colon < 0 ? line : line.slice(0, colon);
  const [name = '', ...rest] = head.split(';');
  const params: Record<string, string> = {};
  for (const p of rest) {
    const eq = p.indexOf('=');
    if (eq > 0) params[p.slice(0, eq).toUpperCase()] = p.slice(eq + 1);
  }
  return { name: name.toUpperCase(), params, value: colon < 0 ? '' : line.slice(colon + 1) };
}

function unescapeText(v: string): string {
  return v.replace(/\\([\\;,nN])/g, (_, c: string) => (c === 'n' || c === 'N' ? ' ' : c)).trim();
}

/** A DATE value (YYYYMMDD) as a day number, or null for a DATE-TIME or anything else. */
function dateValue(p: Prop | undefined): number | null {
  if (p === undefined) return null;
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(p.value.trim());
  if (m === null) return null;
  return dayOfDate(`${m[1]}-${m[2]}-${m[3]}`);
}

interface Event {
  summary: string | null;
  from: number;
  to: number; // inclusive
  rrule: string | null;
  exdates: number[];
}

/**
 * Parses .ics text. CALENDAR_ICS_TOO_LARGE over ICS_MAX_BYTES; CALENDAR_ICS_INVALID when it is not an
 * iCalendar object (no BEGIN:VCALENDAR, unbalanced BEGIN/END) or an all-day event is malformed.
 */
export function parseIcs(text: string, opts: { from: number; horizonYears?: number | undefined }): IcsImport {
  if (typeof text !== 'string') throw invalid('ics must be the text of an .ics file');
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > ICS_MAX_BYTES) {
    throw new PunctualError(
      'CALENDAR_ICS_TOO_LARGE',
      `the .ics text is ${bytes} bytes; the limit is ${ICS_MAX_BYTES}`,
      {
        field: 'ics',
        bytes,
        limit: ICS_MAX_BYTES,
      },
    );
  }
  const horizon = opts.horizonYears ?? ICS_DEFAULT_HORIZON_YEARS;
  if (!Number.isInteger(horizon) || horizon < 0 || horizon > ICS_MAX_HORIZON_YEARS) {
    throw invalid(`horizonYears must be an integer from 0 to ${ICS_MAX_HORIZON_YEARS}`, {
      field: 'horizonYears',
    });
  }
  const lines = unfoldIcs(text.replace(/^\uFEFF/, ''));
  if (lines.length === 0 || lines[0]!.trim().toUpperCase() !== 'BEGIN:VCALENDAR') {
    throw invalid('the text is not iCalendar: it must start with BEGIN:VCALENDAR');
  }
  const stack: string[] = [];
  const events: Event[] = [];
  const skipped: IcsImport['skipped'] = [];
  let tz: string | null = null;
  let props: Prop[] | null = null;
  lines.forEach((line, i) => {
    const p = parseProp(line);
    if (p.name === 'BEGIN') {
      stack.push(p.value.toUpperCase());
      if (p.value.toUpperCase() === 'VEVENT') props = [];
    } else if (p.name === 'END') {
      const open = stack.pop();
      if (open !== p.value.toUpperCase()) {
        throw invalid(`line ${i + 1}: END:${p.value} does not close BEGIN:${open ?? '(nothing)'}`, {
          line: i + 1,
        });
      }
      if (open === 'VEVENT' && props !== null) {
        const e = readEvent(props, i + 1, skipped);
        if (e !== null) events.push(e);
        props = null;
      }
    } else if (props !== null && stack[stack.length - 1] === 'VEVENT') {
      props.push(p);
    } else if (stack.length === 1 && p.name === 'X-WR-TIMEZONE' && p.value.trim() !== '') {
      tz = p.value.trim();
    }
  });
  if (stack.length !== 0) throw invalid(`BEGIN:${stack[stack.length - 1]} is never closed`);
  const firstYear = new Date(opts.from).getUTCFullYear();
  const ranges: { from: number; to: number; label: string | null }[] = [];
  for (const e of events) {
    if (e.rrule === null) {
      ranges.push({ from: e.from, to: e.to, label: e.summary });
      continue;
    }
    for (const from of yearlyStarts(e, firstYear, firstYear + horizon)) {
      ranges.push({ from, to: from + (e.to - e.from), label: e.summary });
    }
  }
  return { dates: mergeRanges(ranges), tz, skipped };
}

function readEvent(props: Prop[], line: number, skipped: IcsImport['skipped']): Event | null {
  const get = (n: string): Prop | undefined => props.find((p) => p.name === n);
  const summaryProp = get('SUMMARY');
  const summary = summaryProp === undefined ? null : unescapeText(summaryProp.value) || null;
  const start = get('DTSTART');
  if (start === undefined) {
    skipped.push({ summary, why: 'no DTSTART' });
    return null;
  }
  const from = dateValue(start);
  if (from === null || (start.params.VALUE !== undefined && start.params.VALUE.toUpperCase() !== 'DATE')) {
    if (start.params.VALUE?.toUpperCase() === 'DATE') {
      throw invalid(`event ending on line ${line}: DTSTART "${start.value}" is not a date YYYYMMDD`, {
        line,
      });
    }
    skipped.push({ summary, why: 'not an all-day event (DTSTART has a time of day)' });
    return null;
  }
  let to = from;
  const end = get('DTEND');
  const duration = get('DURATION');
  if (end !== undefined) {
    const endDay = dateValue(end);
    if (endDay === null || endDay <= from) {
      throw invalid(`event ending on line ${line}: DTEND "${end.value}" must be a date after DTSTART`, {
        line,
      });
    }
    to = endDay - 1; // DTEND is exclusive
  } else if (duration !== undefined) {
    const m = /^P(\d+)D$|^P(\d+)W$/.exec(duration.value.trim());
    if (m === null) {
      throw invalid(`event ending on line ${line}: DURATION "${duration.value}" must be whole days (P3D)`, {
        line,
      });
    }
    const days = m[1] !== undefined ? Number(m[1]) : Number(m[2]) * 7;
    if (days < 1) throw invalid(`event ending on line ${line}: DURATION must be at least one day`, { line });
    to = from + days - 1;
  }
  const rruleProp = get('RRULE');
  let rrule: string | null = null;
  if (rruleProp !== undefined) {
    rrule = rruleProp.value.toUpperCase();
    const parts = new Map(rrule.split(';').map((kv) => kv.split('=') as [string, string]));
    const plainYearly =
      parts.get('FREQ') === 'YEARLY' &&
      [...parts.keys()].every((k) => ['FREQ', 'INTERVAL', 'COUNT', 'UNTIL'].includes(k));
    if (!plainYearly) {
      skipped.push({ summary, why: `recurrence "${rruleProp.value}" is not a plain yearly one` });
      return null;
    }
  }
  const exdates = props
    .filter((p) => p.name === 'EXDATE')
    .flatMap((p) => p.value.split(','))
    .map((v) => dayOfDate(`${v.slice(0, 4)}-${v.slice(4, 6)}-${v.slice(6, 8)}`))
    .filter((d): d is number => d !== null);
  return { summary, from, to, rrule, exdates };
}

/** The start days of a plain yearly event within [firstYear, lastYear] (a Feb 29 only in leap years). */
function yearlyStarts(e: Event, firstYear: number, lastYear: number): number[] {
  const parts = new Map((e.rrule ?? '').split(';').map((kv) => kv.split('=') as [string, string]));
  const interval = Math.max(1, Number(parts.get('INTERVAL') ?? '1') || 1);
  const count = parts.has('COUNT') ? Number(parts.get('COUNT')) : Infinity;
  const untilText = parts.get('UNTIL');
  const until =
    untilText === undefined
      ? Infinity
      : (dayOfDate(`${untilText.slice(0, 4)}-${untilText.slice(4, 6)}-${untilText.slice(6, 8)}`) ?? Infinity);
  const [y0, md] = [Number(dateOfDay(e.from).slice(0, 4)), dateOfDay(e.from).slice(4)];
  const out: number[] = [];
  let n = 0;
  for (let y = y0; y <= lastYear && n < count; y += interval) {
    const day = dayOfDate(`${String(y).padStart(4, '0')}${md}`);
    if (day === null) continue; // Feb 29 in a common year: no instance (RFC 5545)
    if (day > until) break;
    n++;
    if (y >= firstYear && !e.exdates.includes(day)) out.push(day);
  }
  return out;
}

/** Sorts ranges and merges those that share a day, joining their distinct labels. */
function mergeRanges(ranges: { from: number; to: number; label: string | null }[]): CalendarDateInput[] {
  ranges.sort((a, b) => a.from - b.from || a.to - b.to);
  const out: { from: number; to: number; labels: string[] }[] = [];
  for (const r of ranges) {
    const last = out[out.length - 1];
    if (last !== undefined && r.from <= last.to) {
      last.to = Math.max(last.to, r.to);
      if (r.label !== null && !last.labels.includes(r.label)) last.labels.push(r.label);
    } else {
      out.push({ from: r.from, to: r.to, labels: r.label === null ? [] : [r.label] });
    }
  }
  return out.map((r) => ({
    start: dateOfDay(r.from),
    ...(r.to === r.from ? {} : { end: dateOfDay(r.to) }),
    ...(r.labels.length === 0 ? {} : { label: r.labels.join(' / ').slice(0, 200) }),
  }));
}
