// The schedule form's logic, free of React: the form state (strings, as typed), its conversion from a saved
// schedule and into the body of PUT /v1/schedules/{key}, and the checks only the browser can make (JSON that
// does not parse, a duration or number that is not one). Range checks are left to the API, whose errors are
// shown next to the field they name; every field's id is the API path of the value it edits.

import type { DstChoice, Schedule, ScheduleInput, TargetKind } from '../api.ts';
import { buildTarget, targetFields } from './form-target.ts';
import { formatDurationText, parseDurationText } from './form-text.ts';

export { formatDurationText, parseDurationText, parseHeaders } from './form-text.ts';
export { targetFields } from './form-target.ts';
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
  /** One argument per line; with commandShell, the whole text is the command line. */
  commandArgv: string;
  commandShell: '' | 'true' | 'false';
  commandCwd: string;
  /** One "NAME=value" per line. */
  commandEnv: string;
  commandStdin: string;
  commandTimeout: string;
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
  /** DST choice (cron and RRULE); empty: the spec kind's default. */
  dstGap: '' | DstChoice['gap'];
  dstRepeat: '' | DstChoice['repeat'];
  /** Calendar names, separated by commas: their dates skip an occurrence. */
  exclude: string;
  /** A calendar whose working days the schedule keeps to; empty: none. */
  businessDaysCalendar: string;
  /** What an occurrence on a non-working day does; empty: skip. */
  businessDaysRoll: '' | 'skip' | 'next' | 'previous';
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
  commandArgv: 'target.command.argv',
  commandShell: 'target.command.shell',
  commandCwd: 'target.command.cwd',
  commandEnv: 'target.command.env',
  commandStdin: 'target.command.stdin',
  commandTimeout: 'target.command.timeoutMs',
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
  dstGap: 'dst.gap',
  dstRepeat: 'dst.repeat',
  exclude: 'exclude',
  businessDaysCalendar: 'businessDays.calendar',
  businessDaysRoll: 'businessDays.roll',
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
    commandArgv: '',
    commandShell: '',
    commandCwd: '',
    commandEnv: '',
    commandStdin: '',
    commandTimeout: '',
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
    dstGap: '',
    dstRepeat: '',
    exclude: '',
    businessDaysCalendar: '',
    businessDaysRoll: '',
  };
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
    dstGap: s.dst?.gap ?? '',
    dstRepeat: s.dst?.repeat ?? '',
    exclude: (s.exclude ?? []).join(', '),
    businessDaysCalendar: s.businessDays?.calendar ?? '',
    businessDaysRoll: s.businessDays?.roll ?? '',
  };
}

/**
 * The body to save over `loaded`: what the form edits, plus the fields it has no control for (the summary,
 * labels, the expectation and a target's message id template), kept as they are so that saving the form
 * never erases them.
 */
export function keepUnedited(body: ScheduleInput, loaded: Schedule | undefined): ScheduleInput {
  if (loaded === undefined) return body;
  const out: ScheduleInput = { ...body };
  if (out.summary === undefined && typeof loaded.summary === 'string') out.summary = loaded.summary;
  if (out.labels === undefined && Object.keys(loaded.labels ?? {}).length > 0) out.labels = loaded.labels;
  if (out.expect === undefined && loaded.expect)
    out.expect = { successWithin: loaded.expect.successWithinMs };
  const [kind, shape] = Object.entries(out.target)[0] ?? [];
  const before = (loaded.target as Record<string, unknown>)[kind ?? ''] as
    { idTemplate?: string } | undefined;
  if (kind !== undefined && before?.idTemplate !== undefined && typeof shape === 'object' && shape !== null) {
    const next = shape as { idTemplate?: string };
    if (next.idTemplate === undefined) {
      out.target = { [kind]: { ...next, idTemplate: before.idTemplate } } as ScheduleInput['target'];
    }
  }
  return out;
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

  const gap = choice(f.dstGap);
  const repeat = choice(f.dstRepeat);
  if (gap || repeat) body.dst = { ...(gap ? { gap } : {}), ...(repeat ? { repeat } : {}) };

  const exclude = f.exclude
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  if (exclude.length > 0) body.exclude = exclude;
  const calendar = f.businessDaysCalendar.trim();
  if (calendar !== '')
    body.businessDays = { calendar, roll: f.businessDaysRoll === '' ? 'skip' : f.businessDaysRoll };

  return { body, errors };
}

/** Checks on the key the browser can make; the API has the last word. */
export function keyProblem(key: string): string | null {
  if (key === '') return 'is required';
  if (!/^[A-Za-z0-9_][A-Za-z0-9._:@-]{0,199}$/.test(key)) {
    return 'must be 1-200 letters, digits or . _ : @ - and start with a letter, digit or _';
  }
  return null;
}
