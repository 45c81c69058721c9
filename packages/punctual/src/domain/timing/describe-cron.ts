// English descriptions of cron specs: "<time>, <days>, <zone>", e.g. "At 02:30, every day, America/New_York"
// or "Every 15 minutes, Europe/Paris". Covers the common forms and never throws: anything it cannot put
// into words becomes "Cron <expr>, <zone>". Pure string work: no I/O, no clock reads, no timers.

import { expandCronField, parseCronFields, type CronFields } from './cron-spec.js';
import { memoize } from './memoize.js';

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const ORDINALS: Record<string, string> = {
  '1': 'first',
  '2': 'second',
  '3': 'third',
  '4': 'fourth',
  '5': 'fifth',
  L: 'last',
};

const pad = (n: number): string => String(n).padStart(2, '0');

/** 1st, 2nd, 3rd, 4th, 11th, 22nd... */
function nth(n: number): string {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/** "a", "a and b", "a, b and c". */
function words(items: string[]): string {
  return items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** The step when `values` is an arithmetic progression of at least two values, else undefined. */
function stepOf(values: number[]): number | undefined {
  if (values.length < 2) return undefined;
  const d = (values[1] as number) - (values[0] as number);
  return values.every((v, i) => i === 0 || v - (values[i - 1] as number) === d) ? d : undefined;
}

/** "every <d> <unit>" when the values are 0, d, 2d... filling the whole cycle of `size`. */
function cycle(values: number[], size: number): number | undefined {
  if (values.length === size) return 1;
  const d = stepOf(values);
  return d !== undefined && values[0] === 0 && size % d === 0 && values.length === size / d ? d : undefined;
}

function every(d: number, unit: string): string {
  return d === 1 ? `Every ${unit}` : `Every ${d} ${unit}s`;
}

function clock(h: number, m: number, s: number): string {
  return `${pad(h)}:${pad(m)}${s === 0 ? '' : `:${pad(s)}`}`;
}

/** The time-of-day part, and whether it names fixed times of day (then "every day" may follow). */
function timePart(f: CronFields): [string, boolean] | undefined {
  const S = expandCronField('second', f.second);
  const M = expandCronField('minute', f.minute);
  const H = expandCronField('hour', f.hour);
  const [s, m] = [S[0] as number, M[0] as number];
  const at = (text: string, withSecond = true): string =>
    S.length === 1 && s !== 0 && withSecond ? `${text} at second ${s}` : text;
  const hours = cycle(H, 24);
  const hourSpan = (): string => {
    const hStep = stepOf(H);
    const last = H[H.length - 1] as number;
    return hStep === 1 ? `between ${clock(H[0] as number, 0, 0)} and ${clock(last, 59, 0)}` : '';
  };
  const secs = cycle(S, 60);
  if (secs !== undefined && M.length === 60 && hours === 1) return [every(secs, 'second'), false];
  if (S.length !== 1) return undefined;
  const mins = cycle(M, 60);
  if (mins !== undefined && hours === 1) return [at(every(mins, 'minute')), false];
  if (M.length === 1 && hours !== undefined)
    return [at(every(hours, 'hour') + (m === 0 ? '' : ` at minute ${m}`)), false];
  if (mins !== undefined && hourSpan() !== '') return [`${at(every(mins, 'minute'))}, ${hourSpan()}`, false];
  if (M.length * H.length <= 6) {
    return [`At ${words(H.flatMap((h) => M.map((mm) => clock(h, mm, s))))}`, true];
  }
  const hStep = stepOf(H);
  if (M.length === 1 && hStep !== undefined) {
    const range = `from ${clock(H[0] as number, m, s)} through ${clock(H[H.length - 1] as number, m, s)}`;
    return [`${every(hStep, 'hour')}, ${range}`, false];
  }
  return undefined;
}

function dayOfMonthPart(dom: string): string | undefined {
  if (dom === '*' || dom === '?') return undefined;
  const step = /^\*\/(\d+)$/.exec(dom);
  if (step) return `on every ${nth(Number(step[1]))} day of the month`;
  const items = dom.split(',').map((el) => {
    if (el === 'L') return 'the last day';
    if (el === 'LW') return 'the last weekday';
    const w = /^(\d+)W$/.exec(el);
    if (w) return `the weekday nearest day ${w[1]}`;
    const r = /^(\d+)-(\d+)$/.exec(el);
    return r ? `days ${r[1]} through ${r[2]}` : `day ${el}`;
  });
  return `on ${words(items)} of the month`;
}

function dayName(token: string): string {
  const n = /^\d+$/.test(token)
    ? Number(token)
    : ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'].indexOf(token);
  const name = DAYS[n];
  if (name === undefined) throw new Error(`no day ${token}`);
  return name;
}

function dayOfWeekPart(dow: string): string | undefined {
  if (dow === '*' || dow === '?') return undefined;
  let monthly = true;
  const items = dow.split(',').map((el) => {
    const nth = /^(\w+?)#(\w)$/.exec(el);
    if (nth) return `the ${ORDINALS[nth[2] as string]} ${dayName(nth[1] as string)} of the month`;
    const last = /^(\w+?)L$/.exec(el);
    if (last) return `the last ${dayName(last[1] as string)} of the month`;
    monthly = false;
    const r = /^(\w+)-(\w+)$/.exec(el);
    if (r) return `${dayName(r[1] as string)} through ${dayName(r[2] as string)}`;
    if (/^\w+$/.test(el)) return dayName(el);
    return words(expandCronField('dayOfWeek', el).map((v) => dayName(String(v))));
  });
  return `${monthly ? 'on' : 'only on'} ${words(items)}`;
}

function monthName(token: string): string {
  const n = /^\d+$/.test(token)
    ? Number(token) - 1
    : MONTHS.findIndex((m) => m.toUpperCase().startsWith(token));
  const name = MONTHS[n];
  if (name === undefined) throw new Error(`no month ${token}`);
  return name;
}

function monthPart(month: string): string | undefined {
  if (month === '*') return undefined;
  const items = month.split(',').map((el) => {
    const r = /^(\w+)-(\w+)$/.exec(el);
    if (r) return `${monthName(r[1] as string)} through ${monthName(r[2] as string)}`;
    if (/^\w+$/.test(el)) return monthName(el);
    return words(expandCronField('month', el).map((v) => monthName(String(v))));
  });
  return `in ${words(items)}`;
}

function yearPart(year: string): string | undefined {
  return year === '*' ? undefined : `in ${words(year.split(',').map((y) => y.replace('-', ' through ')))}`;
}

function describeFields(f: CronFields, tz: string): string | undefined {
  const time = timePart(f);
  if (time === undefined) return undefined;
  const and = f.dayOfWeek.startsWith('+');
  const dowText = f.dayOfWeek.replace(/^\+/, '');
  const days: string[] = [];
  const dom = dayOfMonthPart(f.dayOfMonth);
  const dow = dayOfWeekPart(dowText);
  const plainDate = /^\d+$/.test(f.dayOfMonth) && /^(\d+|[A-Z]{3})$/.test(f.month) && dow === undefined;
  if (plainDate) days.push(`on ${monthName(f.month)} ${f.dayOfMonth}`);
  else {
    const vixieAnd = and || f.dayOfMonth.startsWith('*') || dowText.startsWith('*');
    if (dom !== undefined && dow !== undefined)
      days.push(`${dom} ${vixieAnd ? 'and' : 'or'} ${dow.replace(/^only /, '')}`);
    else if (dom !== undefined || dow !== undefined) days.push((dom ?? dow) as string);
    const month = monthPart(f.month);
    if (month !== undefined) days.push(month);
  }
  const year = yearPart(f.year);
  if (year !== undefined) days.push(year);
  if (days.length === 0 && time[1]) days.push('every day');
  return [time[0], ...days, tz].join(', ');
}

/** Describes a cron expression in English, ending with the zone; never throws. */
export const describeCron = memoize(describe, 10_000);

function describe(expr: string, tz: string): string {
  try {
    const text = describeFields(parseCronFields(expr), tz);
    if (text !== undefined) return text;
  } catch {
    // fall through to the literal form
  }
  return `Cron ${expr.trim().replace(/\s+/g, ' ')}, ${tz}`;
}
