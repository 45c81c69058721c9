// The schedule form's logic, free of React: the form state (strings, as typed), its conversion from a saved
// schedule and into the body of PUT /v1/schedules/{key}, and the checks only the browser can make (JSON that
// does not parse, a duration or number that is not one). Range checks are left to the API, whose errors are
// shown next to the field they name; every field's id is the API path of the value it edits.

import {
  targetKind,
  type Schedule,
  type ScheduleInput,
  type Target,
  type TargetKind,
  type TargetOf,
} from '../api.ts';
import { instantToWallTime, isoOf, isValidZone, wallTimeToInstant } from './time.ts';

export interface FormState {
  key: string;
  spec: string;
  tz: string;
  targetKind: TargetKind;
  handler: string;
  webhookUrl: string;
  webhookMethod: '' | 'POST' | 'PUT' | 'PATCH';
  /** One "Name: value" per line. */
  webhookHeaders: string;
  webhookTimeout: string;
  redisConnection: string;
  redisStream: string;
  redisMaxLen: string;
  natsConnection: string;
  natsSubject: string;
  amqpConnection: string;
  /** Empty: the default exchange. */
  amqpExchange: string;
  amqpRoutingKey: string;
  scriptSource: string;
  scriptTimeout: string;
  scriptMemoryMb: string;
  /** JSON text; empty: no payload. */
  payload: string;
  retryMaxAttempts: string;
  retryBackoff: '' | 'fixed' | 'exponential';
  retryDelay: string;
  retryMaxDelay: string;
  retryJitter: '' | 'true' | 'false';
  timeout: string;
  overlap: '' | 'allow' | 'skip' | 'bufferOne' | 'bufferAll' | 'cancelPrevious';
  misfire: '' | 'skip' | 'runOnce' | 'runAll';
  catchupWindow: string;
  maxCatchup: string;
  deadline: string;
  priority: string;
  maxChecks: string;
  checkHorizon: string;
  /** ISO 8601 wall times (2026-01-05T09:00) read in the schedule's zone. */
  startAt: string;
  endAt: string;
  maxRuns: string;
  /** Milliseconds or a duration such as "30s". */
  jitter: string;
}

export type FormField = keyof FormState;

/** The API path of the value each form field edits; also the field's element id (prefixed `field-`). */
export const FIELD_PATHS: Record<FormField, string> = {
  key: 'key',
  spec: 'spec',
  tz: 'tz',
  targetKind: 'target',
  handler: 'target.handler',
  webhookUrl: 'target.webhook.url',
  webhookMethod: 'target.webhook.method',
  webhookHeaders: 'target.webhook.headers',
  webhookTimeout: 'target.webhook.timeoutMs',
  redisConnection: 'target.redis.connection',
  redisStream: 'target.redis.stream',
  redisMaxLen: 'target.redis.maxLen',
  natsConnection: 'target.nats.connection',
  natsSubject: 'target.nats.subject',
  amqpConnection: 'target.amqp.connection',
  amqpExchange: 'target.amqp.exchange',
  amqpRoutingKey: 'target.amqp.routingKey',
  scriptSource: 'target.script.source',
  scriptTimeout: 'target.script.timeoutMs',
  scriptMemoryMb: 'target.script.memoryMb',
  payload: 'payload',
  retryMaxAttempts: 'policies.retry.maxAttempts',
  retryBackoff: 'policies.retry.backoff',
  retryDelay: 'policies.retry.delayMs',
  retryMaxDelay: 'policies.retry.maxDelayMs',
  retryJitter: 'policies.retry.jitter',
  timeout: 'policies.timeoutMs',
  overlap: 'policies.overlap',
  misfire: 'policies.misfire',
  catchupWindow: 'policies.catchupWindowMs',
  maxCatchup: 'policies.maxCatchup',
  deadline: 'policies.deadlineMs',
  priority: 'policies.priority',
  maxChecks: 'policies.maxChecks',
  checkHorizon: 'policies.checkHorizonMs',
  startAt: 'startAt',
  endAt: 'endAt',
  maxRuns: 'maxRuns',
  jitter: 'jitter',
};

export const KNOWN_PATHS: readonly string[] = Object.values(FIELD_PATHS);

/** The element id of the control editing API path `path`. */
export function fieldId(path: string): string {
  return `field-${path.replace(/\./g, '-')}`;
}

/** What the service uses when a policy is left empty: shown as placeholders only, never sent. */
export const POLICY_HINTS: Partial<Record<FormField, string>> = {
  retryMaxAttempts: '3',
  retryBackoff: 'exponential',
  retryDelay: '1s',
  retryMaxDelay: '1h',
  retryJitter: 'true',
  timeout: '1m',
  overlap: 'allow',
  misfire: 'runOnce',
  catchupWindow: '1d',
  maxCatchup: '1000',
  deadline: 'none',
  priority: '0',
  maxChecks: '10',
  checkHorizon: '30d',
};

export function emptyForm(tz = 'UTC'): FormState {
  return {
    key: '',
    spec: '',
    tz,
    targetKind: 'webhook',
    handler: '',
    webhookUrl: '',
    webhookMethod: '',
    webhookHeaders: '',
    webhookTimeout: '',
    redisConnection: '',
    redisStream: '',
    redisMaxLen: '',
    natsConnection: '',
    natsSubject: '',
    amqpConnection: '',
    amqpExchange: '',
    amqpRoutingKey: '',
    scriptSource: '',
    scriptTimeout: '',
    scriptMemoryMb: '',
    payload: '',
    retryMaxAttempts: '',
    retryBackoff: '',
    retryDelay: '',
    retryMaxDelay: '',
    retryJitter: '',
    timeout: '',
    overlap: '',
    misfire: '',
    catchupWindow: '',
    maxCatchup: '',
    deadline: '',
    priority: '',
    maxChecks: '',
    checkHorizon: '',
    startAt: '',
    endAt: '',
    maxRuns: '',
    jitter: '',
  };
}

const UNITS: Record<string, number> = {
  ms: 1,
  s: 1_000,
  m: 60_000,
  min: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/**
 * Milliseconds from "1500", "30s", "5m", "1h30m", "2d", "250ms"; null when the text is not a duration.
 * A bare number is milliseconds.
 */
export function parseDurationText(text: string): number | null {
  const t = text.trim().toLowerCase().replace(/\s+/g, '');
  if (t === '') return null;
  if (/^\d+$/.test(t)) return Number(t);
  const re = /(\d+(?:\.\d+)?)(ms|min|s|m|h|d)/y;
  let total = 0;
  let pos = 0;
  while (pos < t.length) {
    re.lastIndex = pos;
    const m = re.exec(t);
    if (!m) return null;
    total += Number(m[1]) * (UNITS[m[2] as string] as number);
    pos = re.lastIndex;
  }
  return Math.round(total);
}

/** The shortest exact form of `ms` in units: 5400000 → "1h30m", 1500 → "1s500ms", 0 → "0". */
export function formatDurationText(ms: number): string {
  if (ms === 0) return '0';
  let rest = ms;
  let out = '';
  for (const [unit, size] of [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1_000],
    ['ms', 1],
  ] as const) {
    const n = Math.floor(rest / size);
    if (n > 0) {
      out += `${n}${unit}`;
      rest -= n * size;
    }
  }
  return out;
}

function headersText(h: Record<string, string> | undefined): string {
  return h
    ? Object.entries(h)
        .map(([k, v]) => `${k}: ${v}`)
        .join('\n')
    : '';
}

const optionalText = (v: string | number | undefined): string => (v === undefined ? '' : String(v));

/** The target's fields of the form, for every kind (the other kinds' fields stay empty). */
export function targetFields(t: Target): Partial<FormState> {
  const kind = targetKind(t);
  if ('webhook' in t) {
    const w = t.webhook;
    return {
      targetKind: kind,
      webhookUrl: w.url,
      webhookMethod: w.method ?? '',
      webhookHeaders: headersText(w.headers),
      webhookTimeout: w.timeoutMs === undefined ? '' : formatDurationText(w.timeoutMs),
    };
  }
  if ('redis' in t) {
    const r = t.redis;
    return {
      targetKind: kind,
      redisConnection: r.connection,
      redisStream: r.stream,
      redisMaxLen: optionalText(r.maxLen),
    };
  }
  if ('nats' in t)
    return { targetKind: kind, natsConnection: t.nats.connection, natsSubject: t.nats.subject };
  if ('amqp' in t) {
    const a = t.amqp;
    return {
      targetKind: kind,
      amqpConnection: a.connection,
      amqpExchange: a.exchange ?? '',
      amqpRoutingKey: a.routingKey,
    };
  }
  if ('script' in t) {
    const sc = t.script;
    return {
      targetKind: kind,
      scriptSource: sc.source,
      scriptTimeout: sc.timeoutMs === undefined ? '' : formatDurationText(sc.timeoutMs),
      scriptMemoryMb: optionalText(sc.memoryMb),
    };
  }
  return { targetKind: 'handler', handler: 'handler' in t ? t.handler : '' };
}

/** The form showing a saved schedule. Every value is filled in, so saving it unchanged changes nothing. */
export function formFromSchedule(s: Schedule): FormState {
  const p = s.policies;
  const f = emptyForm(s.tz);
  return {
    ...f,
    key: s.key,
    spec: s.spec,
    ...targetFields(s.target),
    payload: s.payload === null || s.payload === undefined ? '' : JSON.stringify(s.payload, null, 2),
    retryMaxAttempts: String(p.retry.maxAttempts),
    retryBackoff: p.retry.backoff,
    retryDelay: formatDurationText(p.retry.delayMs),
    retryMaxDelay: formatDurationText(p.retry.maxDelayMs),
    retryJitter: p.retry.jitter ? 'true' : 'false',
    timeout: formatDurationText(p.timeoutMs),
    overlap: p.overlap,
    misfire: p.misfire,
    catchupWindow: formatDurationText(p.catchupWindowMs),
    maxCatchup: String(p.maxCatchup),
    deadline: p.deadlineMs === null ? '' : formatDurationText(p.deadlineMs),
    priority: String(p.priority),
    maxChecks: String(p.maxChecks),
    checkHorizon: formatDurationText(p.checkHorizonMs),
    startAt: s.startAt ? instantToWallTime(Date.parse(s.startAt), s.tz) : '',
    endAt: s.endAt ? instantToWallTime(Date.parse(s.endAt), s.tz) : '',
    maxRuns: s.maxRuns === null ? '' : String(s.maxRuns),
    jitter: s.jitterMs > 0 ? formatDurationText(s.jitterMs) : '',
  };
}

export interface BuiltBody {
  body: ScheduleInput;
  /** Problems found before sending, by API path. Empty when the body can be sent. */
  errors: Record<string, string>;
}

/**
 * The request body the form stands for. Empty fields are left out (the service's defaults apply); values the
 * browser can read are converted (durations to milliseconds, wall times in the schedule's zone to instants).
 */
export function buildBody(f: FormState): BuiltBody {
  const errors: Record<string, string> = {};
  const err = (field: FormField, message: string): void => {
    errors[FIELD_PATHS[field]] = message;
  };
  const int = (field: FormField): number | undefined => {
    const t = f[field].trim();
    if (t === '') return undefined;
    if (!/^-?\d+$/.test(t)) {
      err(field, 'must be a whole number');
      return undefined;
    }
    return Number(t);
  };
  const duration = (field: FormField): number | undefined => {
    const t = f[field].trim();
    if (t === '') return undefined;
    const ms = parseDurationText(t);
    if (ms === null) err(field, 'must be a duration such as 30s, 5m, 1h30m or milliseconds');
    return ms ?? undefined;
  };
  const choice = <T extends string>(v: T | ''): T | undefined => (v === '' ? undefined : v);

  const target = buildTarget(f, { int, duration, err });
  const body: ScheduleInput = { spec: f.spec.trim(), target };
  if (f.tz.trim() !== '') body.tz = f.tz.trim();

  if (f.payload.trim() !== '') {
    try {
      body.payload = JSON.parse(f.payload);
    } catch (e) {
      err('payload', `is not valid JSON: ${(e as Error).message}`);
    }
  }

  const retry: NonNullable<NonNullable<ScheduleInput['policies']>['retry']> = {};
  const maxAttempts = int('retryMaxAttempts');
  if (maxAttempts !== undefined) retry.maxAttempts = maxAttempts;
  const backoff = choice(f.retryBackoff);
  if (backoff) retry.backoff = backoff;
  const delayMs = duration('retryDelay');
  if (delayMs !== undefined) retry.delayMs = delayMs;
  const maxDelayMs = duration('retryMaxDelay');
  if (maxDelayMs !== undefined) retry.maxDelayMs = maxDelayMs;
  if (f.retryJitter !== '') retry.jitter = f.retryJitter === 'true';

  const policies: NonNullable<ScheduleInput['policies']> = {};
  if (Object.keys(retry).length > 0) policies.retry = retry;
  const timeoutMs = duration('timeout');
  if (timeoutMs !== undefined) policies.timeoutMs = timeoutMs;
  const overlap = choice(f.overlap);
  if (overlap) policies.overlap = overlap;
  const misfire = choice(f.misfire);
  if (misfire) policies.misfire = misfire;
  const catchupWindowMs = duration('catchupWindow');
  if (catchupWindowMs !== undefined) policies.catchupWindowMs = catchupWindowMs;
  const maxCatchup = int('maxCatchup');
  if (maxCatchup !== undefined) policies.maxCatchup = maxCatchup;
  const deadlineMs = duration('deadline');
  if (deadlineMs !== undefined) policies.deadlineMs = deadlineMs;
  const priority = int('priority');
  if (priority !== undefined) policies.priority = priority;
  const maxChecks = int('maxChecks');
  if (maxChecks !== undefined) policies.maxChecks = maxChecks;
  const checkHorizonMs = duration('checkHorizon');
  if (checkHorizonMs !== undefined) policies.checkHorizonMs = checkHorizonMs;
  if (Object.keys(policies).length > 0) body.policies = policies;

  const zone = body.tz ?? 'UTC';
  for (const field of ['startAt', 'endAt'] as const) {
    const wall = f[field].trim();
    if (wall === '') continue;
    if (!isValidZone(zone)) {
      err(field, 'needs a valid time zone to be read in');
      continue;
    }
    const ms = wallTimeToInstant(wall, zone);
    if (ms === null) err(field, 'is not a date and time');
    else body[field] = isoOf(ms);
  }

  const maxRuns = int('maxRuns');
  if (maxRuns !== undefined) body.maxRuns = maxRuns;

  const jitter = f.jitter.trim();
  if (jitter !== '') body.jitter = /^\d+$/.test(jitter) ? Number(jitter) : jitter;

  return { body, errors };
}

interface Readers {
  int: (field: FormField) => number | undefined;
  duration: (field: FormField) => number | undefined;
  err: (field: FormField, message: string) => void;
}

/** The target the form stands for, of the kind chosen; optional values left empty are left out. */
function buildTarget(f: FormState, { int, duration, err }: Readers): Target {
  const opt = <K extends string, V>(k: K, v: V | undefined): Partial<Record<K, V>> =>
    v === undefined ? {} : ({ [k]: v } as Record<K, V>);
  switch (f.targetKind) {
    case 'handler':
      return { handler: f.handler.trim() };
    case 'redis':
      return {
        redis: {
          connection: f.redisConnection.trim(),
          stream: f.redisStream.trim(),
          ...opt('maxLen', int('redisMaxLen')),
        },
      };
    case 'nats':
      return { nats: { connection: f.natsConnection.trim(), subject: f.natsSubject.trim() } };
    case 'amqp':
      return {
        amqp: {
          connection: f.amqpConnection.trim(),
          ...opt('exchange', f.amqpExchange.trim() || undefined),
          routingKey: f.amqpRoutingKey.trim(),
        },
      };
    case 'script':
      // The source is sent as typed: whitespace can matter to its author, and line numbers must match.
      return {
        script: {
          source: f.scriptSource,
          ...opt('timeoutMs', duration('scriptTimeout')),
          ...opt('memoryMb', int('scriptMemoryMb')),
        },
      };
    case 'webhook':
      break;
  }
  const webhook: TargetOf<'webhook'>['webhook'] = { url: f.webhookUrl.trim() };
  const method = f.webhookMethod === '' ? undefined : f.webhookMethod;
  if (method) webhook.method = method;
  const headers = parseHeaders(f.webhookHeaders);
  if (typeof headers === 'string') err('webhookHeaders', headers);
  else if (Object.keys(headers).length > 0) webhook.headers = headers;
  const timeoutMs = duration('webhookTimeout');
  if (timeoutMs !== undefined) webhook.timeoutMs = timeoutMs;
  return { webhook };
}

/** `Name: value` lines to a record, or a message naming the first line that is not one. */
export function parseHeaders(text: string): Record<string, string> | string {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '') continue;
    const colon = line.indexOf(':');
    if (colon <= 0) return `line ${i + 1} must read "Name: value"`;
    out[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return out;
}

/** Checks on the key the browser can make; the API has the last word. */
export function keyProblem(key: string): string | null {
  if (key === '') return 'is required';
  if (!/^[A-Za-z0-9_][A-Za-z0-9._:@-]{0,199}$/.test(key)) {
    return 'must be 1-200 letters, digits or . _ : @ - and start with a letter, digit or _';
  }
  return null;
}
