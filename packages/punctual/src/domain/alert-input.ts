// Validation of what a tenant sends for an alert channel or a check: names, kinds, URLs, routing keys,
// heartbeat intervals and deadlines (deadline-check.ts), each refused with a stable code and
// `details.field`. Pure: it must never perform I/O (the address guard, which may resolve names, is applied
// by the caller) or read a clock.

import { PunctualError } from '../errors.js';
import { ALERT_CHANNEL_KINDS, CHECK_KINDS, type AlertChannelKind, type CheckKind } from './alert.js';
import { parseDeadline, type DeadlineSpec } from './deadline-check.js';
import { parseDuration } from './timing/duration.js';

/** Channel and check names: 1-128 characters, a letter or digit first, then letters, digits and `. _ : -`. */
export const ALERT_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/** Shortest heartbeat interval a check accepts. */
export const CHECK_MIN_EVERY_MS = 1000;

export interface AlertChannelInput {
  name: string;
  kind: AlertChannelKind;
  url: string;
  routingKey?: string | null | undefined;
}

export interface CheckInput {
  name: string;
  kind: CheckKind;
  /** Heartbeat checks: a duration (`10m`, `PT10M`): a heartbeat must arrive at least this often. */
  every?: string | undefined;
  /** Deadline checks: the key of the schedule whose run must succeed in each window. */
  schedule?: string | undefined;
  /** Deadline checks: a cron line or RRULE; each instant opens a window. */
  spec?: string | undefined;
  /** Deadline checks: the zone the spec is read in (default UTC). */
  tz?: string | undefined;
  /** Deadline checks: how long each window stays open (`15m`). */
  within?: string | undefined;
}

/** A check body, validated. */
export type ParsedCheck =
  | { name: string; kind: 'heartbeat'; everyMs: number }
  | { name: string; kind: 'deadline'; deadline: DeadlineSpec };

/** The fields each kind of check takes (besides name and kind). */
const CHECK_FIELDS: Record<CheckKind, readonly string[]> = {
  heartbeat: ['every'],
  deadline: ['schedule', 'spec', 'tz', 'within'],
};

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function channelInvalid(field: string, message: string): PunctualError {
  return new PunctualError('ALERT_CHANNEL_INVALID', `alert channel ${field}: ${message}`, { field });
}

function checkInvalid(field: string, message: string): PunctualError {
  return new PunctualError('CHECK_INVALID', `check ${field}: ${message}`, { field });
}

function unknownFields(input: Record<string, unknown>, known: readonly string[]): string | undefined {
  return Object.keys(input).find((k) => !known.includes(k));
}

/** Checks a channel or check name; `make` builds the error. */
function checkName(name: unknown, make: (field: string, message: string) => PunctualError): string {
  if (typeof name !== 'string' || !ALERT_NAME_PATTERN.test(name)) {
    throw make('name', 'must be 1-128 characters: a letter or digit, then letters, digits and . _ : -');
  }
  return name;
}

/** Checks an alert channel body; returns it normalised (routingKey null unless pagerduty). */
export function parseAlertChannelInput(
  input: unknown,
): Required<AlertChannelInput> & { routingKey: string | null } {
  if (!isRecord(input)) throw channelInvalid('body', 'must be an object');
  const extra = unknownFields(input, ['name', 'kind', 'url', 'routingKey']);
  if (extra !== undefined) throw channelInvalid(extra, 'is not a channel field');
  const name = checkName(input.name, channelInvalid);
  const kind = input.kind;
  if (typeof kind !== 'string' || !(ALERT_CHANNEL_KINDS as readonly string[]).includes(kind)) {
    throw channelInvalid('kind', `must be one of ${ALERT_CHANNEL_KINDS.join(', ')}`);
  }
  const url = input.url;
  let parsed: URL | undefined;
  try {
    parsed = typeof url === 'string' && url.length <= 2048 ? new URL(url) : undefined;
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw channelInvalid('url', 'must be an absolute http or https URL of at most 2048 characters');
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw channelInvalid('url', 'must not carry a user name or password');
  }
  let routingKey: string | null = null;
  if (kind === 'pagerduty') {
    const rk = input.routingKey;
    if (typeof rk !== 'string' || rk.length < 1 || rk.length > 128 || /[\s\p{Cc}]/u.test(rk)) {
      throw channelInvalid(
        'routingKey',
        'a pagerduty channel needs a routing key of 1-128 visible characters',
      );
    }
    routingKey = rk;
  } else if (input.routingKey !== undefined && input.routingKey !== null) {
    throw channelInvalid('routingKey', 'only a pagerduty channel takes a routing key');
  }
  return { name, kind: kind as AlertChannelKind, url: parsed.toString(), routingKey };
}

/**
 * Checks a check body at `now` (a deadline's windows are judged from it); returns its name, kind and either
 * the heartbeat interval in ms or the deadline. CHECK_INVALID, or CHECK_DEADLINE_UNMEETABLE for a deadline
 * that can never be met.
 */
export function parseCheckInput(input: unknown, now = 0): ParsedCheck {
  if (!isRecord(input)) throw checkInvalid('body', 'must be an object');
  const extra = unknownFields(input, ['name', 'kind', 'every', 'schedule', 'spec', 'tz', 'within']);
  if (extra !== undefined) throw checkInvalid(extra, 'is not a check field');
  const name = checkName(input.name, checkInvalid);
  const kind = input.kind;
  if (typeof kind !== 'string' || !(CHECK_KINDS as readonly string[]).includes(kind)) {
    throw checkInvalid('kind', `must be one of ${CHECK_KINDS.join(', ')}`);
  }
  const other = Object.keys(input).find(
    (k) =>
      k !== 'name' && k !== 'kind' && input[k] !== undefined && !CHECK_FIELDS[kind as CheckKind].includes(k),
  );
  if (other !== undefined) throw checkInvalid(other, `is not a field of a ${kind} check`);
  if (kind === 'deadline') return { name, kind, deadline: parseDeadline(input, now) };
  if (typeof input.every !== 'string') throw checkInvalid('every', 'must be a duration such as "10m"');
  let everyMs: number;
  try {
    everyMs = parseDuration(input.every);
  } catch (e) {
    throw checkInvalid('every', (e as Error).message);
  }
  if (everyMs < CHECK_MIN_EVERY_MS) throw checkInvalid('every', 'must be at least 1s');
  return { name, kind: 'heartbeat', everyMs };
}
