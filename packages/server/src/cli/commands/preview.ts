// `punctual preview <spec>`: the description of a spec and its next instants, for people (UTC and the
// spec's own zone, one instant a line, with what a DST rule did to it) or for programs (--json: the API's
// preview answer, {"description", "next", "occurrences", "dst"} and with --explain "dropped"). It owns the
// parsing of --from and --count; the spec itself is the library's to judge. It never reads the clock: the
// current instant comes from io.

import {
  applyCalendarRules,
  normalizeCalendar,
  previewSpec,
  type CalendarDraft,
  type CalendarInput,
  type PreviewDropped,
  type PreviewNote,
} from 'punctual';
import { apiClient, type ClientArgs } from '../http-client.js';
import { calendarFromFile, fetchCalendar, isCalendarFile } from './calendars.js';
import { previewDroppedView, previewOccurrenceView } from '../../http/views.js';
import { ArgumentError, EXIT_OK, reportError, type CliIo } from '../io.js';

export interface PreviewArgs extends ClientArgs {
  spec: string;
  /**
   * Calendars that exclude dates: a file (.ics or .json) read here, or the name of a stored calendar read
   * through the service (--url, --key).
   */
  exclude?: string[] | undefined;
  /** Reads calendar files. Default: fs. */
  readFile?: ((path: string) => string) | undefined;
  tz?: string | undefined;
  /** ISO-8601 instant with Z or an offset; default: now. */
  from?: string | undefined;
  /** 1 to 1000; default 5. */
  count?: string | number | undefined;
  json?: boolean | undefined;
  /** Also list the candidates dropped and why. */
  explain?: boolean | undefined;
  /** DST choice: `shift` or `skip` (the library judges the value). */
  dstGap?: string | undefined;
  /** DST choice: `first` or `both`. */
  dstRepeat?: string | undefined;
}

export const DEFAULT_COUNT = 5;
export const MAX_COUNT = 1000;

const INSTANT_RE =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/i;

/** True when the fields name a real calendar date and wall time (the runtime's parser rolls 02-30 over). */
function realFields(m: RegExpExecArray): boolean {
  const [y, mo, d, h, mi, s = '0', oh = '0', om = '0'] = m.slice(1).map((v) => v ?? '0');
  const day = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  return (
    day.getUTCMonth() === Number(mo) - 1 &&
    day.getUTCDate() === Number(d) &&
    Number(h) < 24 &&
    Number(mi) < 60 &&
    Number(s) < 60 &&
    Number(oh) < 24 &&
    Number(om) < 60
  );
}

/** Parses --from: an ISO-8601 instant that names its offset, so it means the same in every zone. */
export function parseFrom(text: string | undefined, now: number): number {
  if (text === undefined) return now;
  const m = INSTANT_RE.exec(text);
  const ms = m && realFields(m) ? Date.parse(text) : NaN;
  if (!Number.isFinite(ms)) {
    throw new ArgumentError(
      `--from must be an ISO-8601 instant with Z or an offset, such as 2026-03-07T12:00:00Z (got "${text}")`,
    );
  }
  return ms;
}

/** Parses --count: an integer from 1 to 1000. */
export function parseCount(value: string | number | undefined): number {
  if (value === undefined) return DEFAULT_COUNT;
  const text = String(value).trim();
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_COUNT) {
    throw new ArgumentError(`--count must be an integer from 1 to ${MAX_COUNT} (got "${text}")`);
  }
  return n;
}

/** An instant as the wall clock of `tz` shows it: `Sun 2026-03-08 03:00:00 -04:00`. */
export function formatInZone(ms: number, tz: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: tz,
    hourCycle: 'h23',
    weekday: 'short',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    timeZoneName: 'longOffset',
  }).formatToParts(ms);
  const get = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)?.value ?? '';
  const offset = get('timeZoneName').replace(/^GMT/, '') || '+00:00';
  const millis = ((ms % 1000) + 1000) % 1000;
  const fraction = millis === 0 ? '' : `.${String(millis).padStart(3, '0')}`;
  return `${get('weekday')} ${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}:${get('second')}${fraction} ${offset}`;
}

/** A note in words: `DST: 02:30 does not exist, runs at 03:00`, `DST: repeated hour, pass 2`. */
export function noteText(n: PreviewNote): string {
  if (n.kind === 'dstShifted') return `DST: ${n.asked} does not exist, runs at ${n.used}`;
  if (n.kind === 'dstRepeat') return `DST: repeated time, pass ${n.pass}`;
  if (n.kind === 'rolled') return `rolled (${n.rule}, ${n.calendar}) from ${new Date(n.from).toISOString()}`;
  if (n.kind === 'moved') return `moved from ${new Date(n.from).toISOString()}`;
  return 'payload overridden';
}

/** A dropped candidate in words: `dropped 2026-12-25T08:00:00.000Z  calendar (de-holidays: Christmas)`. */
export function droppedText(d: PreviewDropped): string {
  const label = d.label === undefined ? '' : `: ${d.label}`;
  return `dropped ${new Date(d.at).toISOString()}  ${d.reason}${d.calendar === undefined ? '' : ` (${d.calendar}${label})`}`;
}

/** The calendars of --exclude: files read here, names fetched from the service; null without any. */
async function excludedCalendars(args: PreviewArgs, now: number) {
  const values = (args.exclude ?? []).flatMap((v) => v.split(',')).filter((v) => v !== '');
  if (values.length === 0) return null;
  const drafts = new Map<string, CalendarDraft>();
  const names: string[] = [];
  for (const v of values) {
    let input: CalendarInput;
    if (isCalendarFile(v)) input = calendarFromFile(v, { now, readFile: args.readFile });
    else input = await fetchCalendar(apiClient(args), v);
    const d = normalizeCalendar(input);
    drafts.set(d.name, d);
    names.push(d.name);
  }
  return applyCalendarRules({ exclude: names, businessDays: null }, (n) => drafts.get(n));
}

export async function preview(args: PreviewArgs, io: CliIo): Promise<number> {
  const json = args.json === true;
  try {
    const from = parseFrom(args.from, io.now());
    const count = parseCount(args.count);
    const dst =
      args.dstGap === undefined && args.dstRepeat === undefined
        ? undefined
        : {
            ...(args.dstGap === undefined ? {} : { gap: args.dstGap }),
            ...(args.dstRepeat === undefined ? {} : { repeat: args.dstRepeat }),
          };
    const p = previewSpec(args.spec, {
      tz: args.tz,
      from,
      count,
      dst: dst as Parameters<typeof previewSpec>[1]['dst'],
      explain: args.explain === true,
      calendars: await excludedCalendars(args, from),
    });
    const next = p.next.map((t) => new Date(t).toISOString());
    if (json) {
      const answer = {
        description: p.description,
        next,
        occurrences: p.occurrences.map(previewOccurrenceView),
        ...(p.dropped === undefined ? {} : { dropped: p.dropped.map(previewDroppedView) }),
        dst: p.dst,
      };
      io.stdout(`${JSON.stringify(answer)}\n`);
      return EXIT_OK;
    }
    const lines = [p.description];
    p.occurrences.forEach((o, i) => {
      const notes = o.notes.length === 0 ? '' : `  (${o.notes.map(noteText).join('; ')})`;
      lines.push(`${next[i]}  ${formatInZone(o.at, p.tz)} ${p.tz}${notes}`);
    });
    if (p.next.length < count) {
      lines.push(p.next.length === 0 ? '(no occurrence at or after --from)' : '(no further occurrence)');
    }
    if (p.dropped !== undefined) {
      if (p.dropped.length === 0) lines.push('(nothing dropped)');
      for (const d of p.dropped) lines.push(droppedText(d));
    }
    io.stdout(`${lines.join('\n')}\n`);
    return EXIT_OK;
  } catch (e) {
    return reportError(e, io, json);
  }
}
