// Which time zone names a schedule may use. This module owns the rule, and checks it itself, so the same
// name gets the same answer on every Node version (Node 24+ accepts "+05:30" in Intl.DateTimeFormat, Node 20
// does not; Intl takes "BST" for Bangladesh). It must never read a clock or perform I/O.
//
// The rule: an IANA name of the Area/Location form (Europe/Paris, America/Argentina/Buenos_Aires, the Etc/*
// zones, and backward links such as US/Eastern or Asia/Calcutta) that the runtime's zone data knows, or one of
// UTC and GMT. Everything else is refused with TIME_ZONE_UNKNOWN: abbreviations (BST, CST, IST, EST, CET, ...),
// the legacy rule names (EST5EDT, PST8PDT), one-word links (Japan, Zulu) and fixed offsets (+05:30, UTC+2).
// A small table of common abbreviations and offsets feeds the hint only ("BST: did you mean Europe/London?").

import { PunctualError } from '../../errors.js';
import { memoize } from './memoize.js';

/** Zone names accepted without an Area/ prefix. */
const BARE_ZONES = new Set(['UTC', 'GMT']);

const AREA_LOCATION_RE = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)+$/;
const OFFSET_RE = /^(?:UTC|GMT|Z)?\s*([+-])\s*(\d{1,2})(?::?(\d{2}))?$/i;

/** Common abbreviations and legacy names, for the hint only (never to pick a zone). */
const SUGGESTIONS: Record<string, string> = {
  BST: 'Europe/London',
  IST: 'Asia/Kolkata (India), Europe/Dublin (Ireland) or Asia/Jerusalem (Israel)',
  WET: 'Europe/Lisbon',
  WEST: 'Europe/Lisbon',
  CET: 'Europe/Paris',
  CEST: 'Europe/Paris',
  MET: 'Europe/Paris',
  EET: 'Europe/Athens',
  EEST: 'Europe/Athens',
  MSK: 'Europe/Moscow',
  EST: 'America/New_York',
  EDT: 'America/New_York',
  EST5EDT: 'America/New_York',
  CST: 'America/Chicago (or Asia/Shanghai for China Standard Time)',
  CDT: 'America/Chicago',
  CST6CDT: 'America/Chicago',
  MST: 'America/Denver (or America/Phoenix, which keeps no DST)',
  MDT: 'America/Denver',
  MST7MDT: 'America/Denver',
  PST: 'America/Los_Angeles',
  PDT: 'America/Los_Angeles',
  PST8PDT: 'America/Los_Angeles',
  AKST: 'America/Anchorage',
  AKDT: 'America/Anchorage',
  HST: 'Pacific/Honolulu',
  AST: 'America/Halifax',
  NST: 'America/St_Johns',
  BRT: 'America/Sao_Paulo',
  ART: 'America/Argentina/Buenos_Aires',
  WAT: 'Africa/Lagos',
  CAT: 'Africa/Maputo',
  EAT: 'Africa/Nairobi',
  SAST: 'Africa/Johannesburg',
  PKT: 'Asia/Karachi',
  SGT: 'Asia/Singapore',
  HKT: 'Asia/Hong_Kong',
  JST: 'Asia/Tokyo',
  KST: 'Asia/Seoul',
  AWST: 'Australia/Perth',
  ACST: 'Australia/Adelaide',
  AEST: 'Australia/Sydney',
  AEDT: 'Australia/Sydney',
  NZST: 'Pacific/Auckland',
  NZDT: 'Pacific/Auckland',
  Z: 'UTC',
  ZULU: 'UTC',
  UCT: 'UTC',
  UNIVERSAL: 'UTC',
  GREENWICH: 'UTC',
};

/** Places whose standard offset is not a whole hour, for the hint of such an offset. */
const PLACE_OF_OFFSET: Record<string, string> = {
  '-09:30': 'Pacific/Marquesas',
  '-03:30': 'America/St_Johns',
  '+03:30': 'Asia/Tehran',
  '+04:30': 'Asia/Kabul',
  '+05:30': 'Asia/Kolkata',
  '+05:45': 'Asia/Kathmandu',
  '+06:30': 'Asia/Yangon',
  '+08:45': 'Australia/Eucla',
  '+09:30': 'Australia/Darwin',
  '+10:30': 'Australia/Lord_Howe',
  '+12:45': 'Pacific/Chatham',
};

/** What to say instead of a refused name (null: no specific suggestion). */
export function timeZoneSuggestion(tz: string): string | null {
  const offset = OFFSET_RE.exec(tz.trim());
  if (offset !== null) {
    const [, sign = '+', h = '0', m = '00'] = offset;
    const hh = h.padStart(2, '0');
    const place = PLACE_OF_OFFSET[`${sign}${hh}:${m}`];
    if (place !== undefined) return place;
    if (m === '00' && Number(h) <= 14) {
      // The Etc zones have POSIX signs: Etc/GMT-5 is five hours ahead of UTC.
      return Number(h) === 0 ? 'UTC' : `Etc/GMT${sign === '+' ? '-' : '+'}${Number(h)} (a fixed offset)`;
    }
    return null;
  }
  return SUGGESTIONS[tz.trim().toUpperCase()] ?? null;
}

/** The runtime's spelling of a zone, or null when it has none; remembered (a formatter costs ~35 µs). */
const runtimeName = memoize((tz: string): string | null => {
  try {
    return new Intl.DateTimeFormat(undefined, { timeZone: tz }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
});

/**
 * Checks a zone name against the rule above and returns it with the runtime's spelling when only letter
 * case differs ("europe/paris" -> "Europe/Paris", "utc" -> "UTC"); links are kept as given (Asia/Kolkata
 * stays Asia/Kolkata). Refused -> TIME_ZONE_UNKNOWN with the given details, `value` and, when the table has
 * one, `suggestion`.
 */
export function resolveTimeZone(tz: string, details: Record<string, unknown>): string {
  const text = typeof tz === 'string' ? tz.trim() : '';
  if (BARE_ZONES.has(text.toUpperCase())) return text.toUpperCase();
  const resolved = AREA_LOCATION_RE.test(text) ? runtimeName(text) : null;
  if (resolved !== null) return resolved.toLowerCase() === text.toLowerCase() ? resolved : text;

  const suggestion = typeof tz === 'string' ? timeZoneSuggestion(tz) : null;
  const isOffset = typeof tz === 'string' && OFFSET_RE.test(tz.trim());
  const why = isOffset
    ? 'a fixed UTC offset is not accepted as a time zone'
    : 'use an IANA zone name of the form Area/Location, such as Europe/Paris, or UTC';
  const message =
    suggestion !== null
      ? `unknown time zone "${String(tz)}": did you mean ${suggestion}? (${why})`
      : `unknown time zone "${String(tz)}" (${why})`;
  throw new PunctualError('TIME_ZONE_UNKNOWN', message, {
    ...details,
    value: tz,
    ...(suggestion !== null ? { suggestion: suggestion.split(' ')[0] } : {}),
  });
}
