// Cron specs: validates each field (naming the field and why), classifies the job the way Vixie cron does
// for DST (fixed-time unless minute or hour starts with `*`), and evaluates it with croner in the
// schedule's zone. Pure: no I/O, no clock reads, no timers; every search is bounded by croner's year cap.

import { Cron } from 'croner';
import { PunctualError } from '../../errors.js';
import { memoize } from './memoize.js';

export type CronFieldName = 'second' | 'minute' | 'hour' | 'dayOfMonth' | 'month' | 'dayOfWeek' | 'year';

/** The seven fields, upper-cased; 5-field expressions get second `0` and year `*`. */
export type CronFields = Record<CronFieldName, string>;

/** Vixie's DST classes: fixed-time jobs run once around a transition, wildcard jobs every real hour. */
export type CronTimeClass = 'fixed-time' | 'wildcard';

export const CRON_NICKNAMES: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

const LIMITS: Record<CronFieldName, readonly [number, number]> = {
  second: [0, 59],
  minute: [0, 59],
  hour: [0, 23],
  dayOfMonth: [1, 31],
  month: [1, 12],
  dayOfWeek: [0, 7],
  year: [1970, 9999],
};
const MONTH_NAMES = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAY_NAMES = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];
const ORDER: CronFieldName[] = ['second', 'minute', 'hour', 'dayOfMonth', 'month', 'dayOfWeek', 'year'];

function fail(part: CronFieldName | 'nickname' | 'fields', value: string, why: string): never {
  const where = part === 'fields' || part === 'nickname' ? 'cron expression' : `cron ${part} field`;
  throw new PunctualError('SPEC_INVALID', `${where} "${value}": ${why}`, { field: 'spec', part, value });
}

function valueOf(field: CronFieldName, token: string, whole: string, rangeEnd = false): number {
  let n: number;
  if (field === 'month' && MONTH_NAMES.includes(token)) n = MONTH_NAMES.indexOf(token) + 1;
  else if (field === 'dayOfWeek' && DAY_NAMES.includes(token))
    n = rangeEnd && token === 'SUN' ? 7 : DAY_NAMES.indexOf(token);
  else if (/^\d+$/.test(token)) n = Number(token);
  else {
    const hint =
      field === 'month' ? ' (use 1-12 or JAN-DEC)' : field === 'dayOfWeek' ? ' (use 0-7 or SUN-SAT)' : '';
    return fail(field, whole, `"${token}" is not a number${hint}`);
  }
  const [lo, hi] = LIMITS[field];
  if (n < lo || n > hi) fail(field, whole, `${n} is out of range ${lo}-${hi}`);
  return n;
}

function spanOf(lo: number, hi: number, step: number): number[] {
  const out: number[] = [];
  for (let v = lo; v <= hi; v += step) out.push(v);
  return out;
}

function stepOf(field: CronFieldName, text: string, raw: string): number {
  const step = Number(raw);
  const [lo, hi] = LIMITS[field];
  if (step < 1) fail(field, text, 'a step must be at least 1');
  if (step > hi - lo + 1) fail(field, text, `step ${step} is larger than the field's range ${lo}-${hi}`);
  return step;
}

/**
 * Validates one comma-separated element and returns the plain values it selects (none for L, W, #); with
 * `expand` false it only validates (a year's `*` alone would list 8,030 values).
 */
function parseElement(field: CronFieldName, el: string, whole: string, expand = true): number[] {
  const span = (lo: number, hi: number, step: number): number[] => (expand ? spanOf(lo, hi, step) : []);
  const [lo, hi] = LIMITS[field];
  if (el === '') fail(field, whole, 'has an empty list element');
  if (field === 'dayOfMonth') {
    if (el === 'L') return [];
    if (el === 'LW') return whole === 'LW' ? [] : fail(field, whole, 'LW must stand alone');
    const w = /^(\d+)W$/.exec(el);
    if (w) {
      valueOf(field, w[1] as string, whole);
      return [];
    }
    if (/[LW]/.test(el))
      fail(field, whole, `"${el}": use L (last day), LW (last weekday) or nW (weekday nearest n)`);
  }
  if (field === 'dayOfWeek') {
    const nth = /^([A-Z]+|\d+)#(\w+)$/.exec(el);
    if (nth) {
      valueOf(field, nth[1] as string, whole);
      if (!/^[1-5L]$/.test(nth[2] as string))
        fail(field, whole, `"#${nth[2]}": the occurrence must be 1-5 or L`);
      return [];
    }
    const last = /^([A-Z]+|\d+)L$/.exec(el);
    if (last) {
      valueOf(field, last[1] as string, whole);
      return [];
    }
  }
  if (el === '*' || el === '?') {
    if (el === '?' && field !== 'dayOfMonth' && field !== 'dayOfWeek') {
      fail(field, whole, '"?" is only allowed in day-of-month and day-of-week');
    }
    return span(lo, hi, 1);
  }
  let m = /^\*\/(\d+)$/.exec(el);
  if (m) return span(lo, hi, stepOf(field, whole, m[1] as string));
  m = /^([A-Z0-9]+)-([A-Z0-9]+)(?:\/(\d+))?$/.exec(el);
  if (m) {
    const a = valueOf(field, m[1] as string, whole);
    const b = valueOf(field, m[2] as string, whole, true);
    if (a > b) fail(field, whole, `range ${el} runs backwards (${a} > ${b})`);
    return span(a, b, m[3] === undefined ? 1 : stepOf(field, whole, m[3]));
  }
  if (/^[A-Z0-9]+\/\d+$/.test(el))
    fail(field, whole, `"${el}": a step needs "*" or a range before it (*/n or a-b/n)`);
  if (/^[A-Z0-9]+$/.test(el)) return [valueOf(field, el, whole)];
  return fail(field, whole, `unexpected "${el}"`);
}

/** Validates a field and returns the sorted plain values it selects. */
export function expandCronField(field: CronFieldName, text: string): number[] {
  const body = field === 'dayOfWeek' && text.startsWith('+') ? text.slice(1) : text;
  if (body === '') fail(field, text, 'is empty');
  const values = new Set<number>();
  for (const el of body.split(',')) for (const v of parseElement(field, el, text)) values.add(v);
  return [...values].sort((a, b) => a - b);
}

/** Validates a field without listing its values; throws SPEC_INVALID as expandCronField does. */
function checkCronField(field: CronFieldName, text: string): void {
  const body = field === 'dayOfWeek' && text.startsWith('+') ? text.slice(1) : text;
  if (body === '') fail(field, text, 'is empty');
  for (const el of body.split(',')) parseElement(field, el, text, false);
}

/** Splits and validates an expression (nicknames expanded); throws SPEC_INVALID naming the field. */
export function parseCronFields(expr: string): CronFields {
  let text = expr.trim();
  if (text.startsWith('@')) {
    const known = CRON_NICKNAMES[text.toLowerCase()];
    if (known === undefined) {
      fail('nickname', text, `unknown nickname; use one of ${Object.keys(CRON_NICKNAMES).join(' ')}`);
    }
    text = known;
  }
  const parts = text.toUpperCase().split(/\s+/);
  if (parts.length < 5 || parts.length > 7) {
    fail('fields', expr, `a cron expression has 5, 6 or 7 fields (got ${parts.length})`);
  }
  const full = parts.length === 5 ? ['0', ...parts, '*'] : parts.length === 6 ? [...parts, '*'] : parts;
  const fields = Object.fromEntries(ORDER.map((name, i) => [name, full[i] as string])) as CronFields;
  for (const name of ORDER) checkCronField(name, fields[name]);
  return fields;
}

/** Vixie's rule: a job is wildcard when its minute or hour field starts with `*`, else fixed-time. */
export function classifyCron(fields: Pick<CronFields, 'minute' | 'hour'>): CronTimeClass {
  return fields.minute.startsWith('*') || fields.hour.startsWith('*') ? 'wildcard' : 'fixed-time';
}

/**
 * The pattern handed to croner. Fixed-time jobs get their second, minute and hour fields spelled out as
 * plain lists, which croner's `fixedTimeRule: 'no-wildcard'` classifies as fixed-time (it would call a
 * stepped range like `0-59/15` an interval job). Day-of-month and day-of-week are ORed when both are
 * restricted, as in Vixie; when either starts with `*` (e.g. `*\/2`) Vixie ANDs them, so `+` is added.
 */
export function cronerPattern(fields: CronFields): string {
  const f = { ...fields };
  if (classifyCron(f) === 'fixed-time') {
    for (const name of ['second', 'minute', 'hour'] as const)
      f[name] = expandCronField(name, f[name]).join(',');
  }
  const dow = f.dayOfWeek.replace(/^\+/, '');
  const starLike = (s: string): boolean => s.startsWith('*') || s.startsWith('?');
  const bare = (s: string): boolean => s === '*' || s === '?';
  if (!f.dayOfWeek.startsWith('+') && (starLike(f.dayOfMonth) || starLike(dow))) {
    if (!bare(f.dayOfMonth) && !bare(dow)) f.dayOfWeek = `+${dow}`;
  }
  return ORDER.map((name) => f[name]).join(' ');
}

export interface CronSpec {
  kind: 'cron';
  /** The expression as given, whitespace collapsed. */
  source: string;
  fields: CronFields;
  timeClass: CronTimeClass;
  nextAfter(after: number): number | null;
}

/** Zones that are UTC itself: no offset, no transitions. */
const UTC_ZONES = new Set(['UTC', 'Etc/UTC', 'Etc/UCT', 'Etc/Universal', 'Etc/Zulu', 'Etc/GMT', 'GMT']);

/**
 * Compiles a cron expression in an (already validated) IANA zone. Remembered by (expression, zone): a
 * CronSpec holds no state between calls, so schedules with the same spec share one.
 */
export const compileCronSpec = memoize(compileCron);

function compileCron(expr: string, tz: string): CronSpec {
  const source = expr.trim().replace(/\s+/g, ' ');
  const fields = parseCronFields(source);
  let cron: Cron;
  try {
    cron = new Cron(cronerPattern(fields), {
      // UTC as a fixed offset: the same instants, without a time-zone conversion per step (~7x faster).
      ...(UTC_ZONES.has(tz) ? { utcOffset: 0 } : { timezone: tz }),
      paused: true,
      domAndDow: false,
      fixedTimeRule: 'no-wildcard',
      mode: '7-part',
    });
  } catch (e) {
    const why = e instanceof Error ? e.message.replace(/^CronPattern:\s*/, '') : String(e);
    throw new PunctualError('SPEC_INVALID', `cron expression "${source}" is invalid: ${why}`, {
      field: 'spec',
      value: source,
    });
  }
  return {
    kind: 'cron',
    source,
    fields,
    timeClass: classifyCron(fields),
    nextAfter(after: number): number | null {
      if (Number.isNaN(after) || after === Infinity) return null;
      // croner walks at most to the year 3000 (or its year field's last value), then answers null.
      const next = cron.nextRun(new Date(Math.max(after, -1)));
      return next === null ? null : next.getTime();
    },
  };
}
