// RFC 5545 EXDATE and RDATE lines of an RRULE spec: parses and validates them (date-times with TZID, UTC
// `Z` values, floating local times, VALUE=DATE dates) and writes them back normalised. It only reads text:
// what the dates do to a series is rrule-series.ts's business. Pure: no I/O, no clock reads.

import { PunctualError } from '../../errors.js';
import { resolveTimeZone } from './time-zone.js';

/** One EXDATE or RDATE value: an instant, a local date-time in a zone, or a whole local date. */
export type RruleDateValue =
  | { form: 'utc'; at: number }
  /** `wall`: the local date-time read as UTC ms; `zone` null when floating (the series' zone). */
  | { form: 'local'; wall: number; zone: string | null }
  /** `day`: local midnight of the date read as UTC ms. */
  | { form: 'date'; day: number };

export interface RruleDateLine {
  name: 'EXDATE' | 'RDATE';
  values: RruleDateValue[];
  /** The line as stored: `NAME;TZID=Zone:...`, `NAME:...Z`, `NAME:...` (floating) or `NAME;VALUE=DATE:...`. */
  line: string;
}

/** Does this token start an EXDATE or RDATE line? */
export function isRruleDateLine(token: string): boolean {
  return /^(EXDATE|RDATE)[;:]/i.test(token);
}

function invalid(part: string, value: string, why: string): PunctualError {
  return new PunctualError('SPEC_INVALID', `RRULE ${part} "${value}": ${why}`, {
    field: 'spec',
    part,
    value,
  });
}

/** Parses one EXDATE or RDATE line (several values separated by commas). */
export function parseRruleDateLine(token: string): RruleDateLine {
  const colon = token.indexOf(':');
  const head = colon < 0 ? token : token.slice(0, colon);
  const [rawName = '', ...params] = head.split(';');
  const name = rawName.toUpperCase() as 'EXDATE' | 'RDATE';
  const expect = `expected ${name};TZID=Zone:YYYYMMDDTHHMMSS, ${name}:YYYYMMDDTHHMMSSZ or ${name};VALUE=DATE:YYYYMMDD (comma lists allowed)`;
  if (colon < 0 || token.slice(colon + 1) === '') throw invalid(name, token, expect);
  let zone: string | null = null;
  let dateOnly = false;
  for (const p of params) {
    const [k = '', v = ''] = p.split('=');
    const key = k.toUpperCase();
    if (key === 'TZID' && v !== '' && zone === null) {
      zone = resolveTimeZone(v, { field: 'spec', part: 'TZID' });
    } else if (key === 'VALUE' && /^(DATE|DATE-TIME)$/i.test(v)) {
      dateOnly = v.toUpperCase() === 'DATE';
    } else if (key === 'VALUE' && /^PERIOD$/i.test(v)) {
      throw invalid(name, token, 'VALUE=PERIOD is not supported; give the start instants');
    } else {
      throw invalid(name, token, `unknown parameter ${p}; ${expect}`);
    }
  }
  if (dateOnly && zone !== null) throw invalid(name, token, 'VALUE=DATE takes no TZID');
  const values = token
    .slice(colon + 1)
    .split(',')
    .map((v): RruleDateValue => {
      const m = dateOnly
        ? /^(\d{4})(\d{2})(\d{2})$/.exec(v)
        : /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(Z?)$/i.exec(v);
      if (m === null)
        throw invalid(name, token, `"${v}" is not a ${dateOnly ? 'date' : 'date-time'}; ${expect}`);
      const [y, mo, d, h = 0, mi = 0, s = 0] = m.slice(1, 7).map((x) => Number(x ?? 0)) as number[];
      const ms = Date.UTC(y as number, (mo as number) - 1, d, h, mi, s);
      const back = new Date(ms);
      if (
        (y as number) < 1970 ||
        back.getUTCMonth() !== (mo as number) - 1 ||
        back.getUTCDate() !== d ||
        h > 23 ||
        mi > 59 ||
        s > 59
      ) {
        throw invalid(name, token, `"${v}" is not a valid date${dateOnly ? '' : ' and time'}`);
      }
      if (dateOnly) return { form: 'date', day: ms };
      if (m[7] !== '') {
        if (zone !== null) throw invalid(name, token, 'has both TZID and a Z suffix');
        return { form: 'utc', at: ms };
      }
      return { form: 'local', wall: ms, zone };
    });
  const texts = token
    .slice(colon + 1)
    .split(',')
    .map((v) => v.toUpperCase());
  const param = dateOnly ? ';VALUE=DATE' : zone !== null ? `;TZID=${zone}` : '';
  return { name, values, line: `${name}${param}:${texts.join(',')}` };
}
