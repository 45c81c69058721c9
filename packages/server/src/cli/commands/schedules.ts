// `punctual schedules ls|get|put|rm|pause|resume|trigger|backfill`: a tenant's schedules through a running
// service's HTTP API (--url, --key). It owns turning options into requests (the put's body is built in
// ../schedule-put-body.ts) and answers into lines for people; with --json it prints the API's JSON as it
// came. Judging a schedule is the service's work, never this file's.

import { ArgumentError, EXIT_OK, type CliIo } from '../io.js';
import { seg, withClient, type ClientArgs } from '../http-client.js';
import { printJson, table } from '../output.js';
import { parseJsonOption } from '../json-option.js';
import { putBody, type SchedulesPutArgs } from '../schedule-put-body.js';

export interface ScheduleJson {
  key: string;
  spec: string;
  tz: string;
  description: string;
  summary?: string | null;
  labels?: Record<string, string>;
  dst?: { gap: string; repeat: string } | null;
  expect?: { successWithinMs: number } | null;
  target: { handler?: string; webhook?: { url: string } } & Record<string, unknown>;
  payload: unknown;
  policies: Record<string, unknown> & { retry?: Record<string, unknown> };
  state: string;
  version: number;
  nextFireAt: string | null;
  firedCount: number;
  lastFiredAt?: string | null;
  lastSucceededAt?: string | null;
  note: string | null;
  startAt: string | null;
  endAt: string | null;
  maxRuns: number | null;
  pausedUntil?: string | null;
}

interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export interface SchedulesListArgs extends ClientArgs {
  state?: string | undefined;
  /** Only keys starting with this. */
  prefix?: string | undefined;
  /** Only this target kind (handler, webhook, ...). */
  target?: string | undefined;
  /** Only schedules with every one of these labels, each `key=value` (or `key:value`). */
  label?: string[] | undefined;
  limit?: string | number | undefined;
  cursor?: string | undefined;
}

export interface ScheduleKeyArgs extends ClientArgs {
  key: string;
}

export interface SchedulesPauseArgs extends ScheduleKeyArgs {
  cancelPending?: boolean | undefined;
  note?: string | undefined;
  /** A timed pause: it resumes by itself at this instant. */
  until?: string | undefined;
}

export interface SchedulesBackfillArgs extends ScheduleKeyArgs {
  /** The first instant of the range (inclusive), ISO-8601 with Z or an offset. */
  from?: string | undefined;
  /** The end of the range (exclusive), not in the future. */
  to?: string | undefined;
}

export interface SchedulesTriggerArgs extends ScheduleKeyArgs {
  /** JSON text replacing the schedule's payload for this run. */
  payload?: string | undefined;
}

export function targetText(t: ScheduleJson['target']): string {
  if (typeof t.handler === 'string') return `handler ${t.handler}`;
  if (t.webhook) return `webhook ${t.webhook.url}`;
  const [kind] = Object.keys(t);
  return kind ?? '-';
}

/** A spec on one line (an RRULE's DTSTART and RRULE lines joined by " "), for tables. */
export const oneLine = (text: string): string =>
  text
    .trim()
    .split(/\s*\n\s*/)
    .join(' ');

/** When it fires next: `paused` while paused (the API's nextFireAt is then null), else the instant or `none`. */
export function nextText(s: Pick<ScheduleJson, 'state' | 'nextFireAt'>): string {
  if (s.state === 'paused') return 'paused';
  return s.nextFireAt ?? 'none';
}

function details(s: ScheduleJson): string {
  const r = s.policies.retry ?? {};
  const p = s.policies;
  const rows: [string, string][] = [
    ['key', s.key],
    ['description', s.description],
    ...(s.summary ? [['summary', s.summary] as [string, string]] : []),
    ...(s.labels && Object.keys(s.labels).length > 0
      ? [
          [
            'labels',
            Object.entries(s.labels)
              .map(([k, v]) => `${k}=${v}`)
              .join(' '),
          ] as [string, string],
        ]
      : []),
    ['spec', `${oneLine(s.spec)}  (${s.tz})`],
    ...(s.dst ? [['dst', `gap ${s.dst.gap}, repeat ${s.dst.repeat}`] as [string, string]] : []),
    ...(s.expect
      ? [
          ['expect', `success within ${s.expect.successWithinMs / 1000}s of each occurrence`] as [
            string,
            string,
          ],
        ]
      : []),
    ['target', targetText(s.target)],
    ['state', `${s.state}, version ${s.version}${s.note ? `, note: ${s.note}` : ''}`],
    ['next', nextText(s)],
    [
      'fired',
      `${s.firedCount} run(s) executed; last fired ${s.lastFiredAt ?? 'never'}, ` +
        `last succeeded ${s.lastSucceededAt ?? 'never'}`,
    ],
    ['payload', JSON.stringify(s.payload ?? null)],
    [
      'policies',
      `retry ${String(r.maxAttempts)} attempts (${String(r.backoff)}), timeout ${String(p.timeoutMs)} ms, ` +
        `overlap ${String(p.overlap)}, misfire ${String(p.misfire)}`,
    ],
  ];
  if (s.startAt || s.endAt) rows.push(['window', `${s.startAt ?? '-'} to ${s.endAt ?? '-'}`]);
  if (s.maxRuns !== null) rows.push(['max runs', String(s.maxRuns)]);
  return `${rows.map(([k, v]) => `${k.padEnd(12)}${v}`).join('\n')}\n`;
}

export async function schedulesList(args: SchedulesListArgs, io: CliIo): Promise<number> {
  return withClient(args, io, async (api) => {
    const { body } = await api.call<Page<ScheduleJson>>('GET', '/v1/schedules', {
      query: {
        state: args.state,
        keyPrefix: args.prefix,
        target: args.target,
        label: args.label,
        limit: args.limit,
        cursor: args.cursor,
      },
    });
    if (args.json === true) {
      printJson(io, body);
      return EXIT_OK;
    }
    const rows = body.items.map((s) => [
      s.key,
      s.state,
      oneLine(s.spec),
      s.tz,
      nextText(s),
      targetText(s.target),
    ]);
    io.stdout(table(['KEY', 'STATE', 'SPEC', 'TZ', 'NEXT', 'TARGET'], rows));
    if (body.nextCursor !== null) io.stdout(`(more: --cursor ${body.nextCursor})\n`);
    return EXIT_OK;
  });
}

export async function schedulesGet(args: ScheduleKeyArgs, io: CliIo): Promise<number> {
  return withClient(args, io, async (api) => {
    const { body } = await api.call<ScheduleJson>('GET', `/v1/schedules/${seg(args.key)}`);
    if (args.json === true) printJson(io, body);
    else io.stdout(details(body));
    return EXIT_OK;
  });
}

export async function schedulesPut(args: SchedulesPutArgs, io: CliIo): Promise<number> {
  return withClient(args, io, async (api) => {
    const body = putBody(args);
    const headers: Record<string, string> = {};
    if (args.ifMatch !== undefined) headers['if-match'] = String(args.ifMatch);
    const res = await api.call<ScheduleJson>('PUT', `/v1/schedules/${seg(args.key)}`, { body, headers });
    const s = res.body;
    if (args.json === true) printJson(io, s);
    else {
      const verb = res.status === 201 ? 'created' : 'saved';
      io.stdout(
        `punctual: ${verb} schedule ${s.key} (version ${s.version}): ${s.description}\n` +
          `  next: ${nextText(s)}\n`,
      );
    }
    return EXIT_OK;
  });
}

export async function schedulesRemove(args: ScheduleKeyArgs, io: CliIo): Promise<number> {
  return withClient(args, io, async (api) => {
    await api.call('DELETE', `/v1/schedules/${seg(args.key)}`);
    if (args.json === true) printJson(io, { key: args.key, deleted: true });
    else
      io.stdout(`punctual: deleted schedule ${args.key} (its pending runs are cancelled; history is kept)\n`);
    return EXIT_OK;
  });
}

export async function schedulesPause(args: SchedulesPauseArgs, io: CliIo): Promise<number> {
  return withClient(args, io, async (api) => {
    const body: Record<string, unknown> = {};
    if (args.cancelPending === true) body.cancelPending = true;
    if (args.note !== undefined) body.note = args.note;
    if (args.until !== undefined) body.until = args.until;
    const { body: s } = await api.call<ScheduleJson>('POST', `/v1/schedules/${seg(args.key)}/pause`, {
      body,
    });
    if (args.json === true) printJson(io, s);
    else {
      const cancelled = args.cancelPending === true ? '; its scheduled runs are cancelled' : '';
      const until = args.until === undefined ? '' : ` until ${String(s.pausedUntil)} (it resumes by itself)`;
      io.stdout(`punctual: paused schedule ${s.key}${until}${cancelled}\n`);
    }
    return EXIT_OK;
  });
}

export async function schedulesResume(args: ScheduleKeyArgs, io: CliIo): Promise<number> {
  return withClient(args, io, async (api) => {
    const { body: s } = await api.call<ScheduleJson>('POST', `/v1/schedules/${seg(args.key)}/resume`);
    if (args.json === true) printJson(io, s);
    else io.stdout(`punctual: resumed schedule ${s.key}; next: ${nextText(s)}\n`);
    return EXIT_OK;
  });
}

export async function schedulesTrigger(args: SchedulesTriggerArgs, io: CliIo): Promise<number> {
  return withClient(args, io, async (api) => {
    const body = args.payload === undefined ? {} : { payload: parseJsonOption('--payload', args.payload) };
    const { body: run } = await api.call<{ id: string; dueAt: string; occurrenceId: string }>(
      'POST',
      `/v1/schedules/${seg(args.key)}/trigger`,
      { body },
    );
    if (args.json === true) printJson(io, run);
    else io.stdout(`punctual: triggered schedule ${args.key}: run ${run.id} due ${run.dueAt}\n`);
    return EXIT_OK;
  });
}

export async function schedulesBackfill(args: SchedulesBackfillArgs, io: CliIo): Promise<number> {
  return withClient(args, io, async (api) => {
    if (args.from === undefined || args.to === undefined) {
      throw new ArgumentError(
        '--from and --to are required: the range [from, to) as ISO-8601 instants with Z or an offset',
      );
    }
    const { body } = await api.call<{ runs: { id: string; scheduledFor: string; state: string }[] }>(
      'POST',
      `/v1/schedules/${seg(args.key)}/backfill`,
      { body: { from: args.from, to: args.to } },
    );
    if (args.json === true) {
      printJson(io, body);
      return EXIT_OK;
    }
    const n = body.runs.length;
    io.stdout(
      `punctual: backfilled schedule ${args.key} over [${args.from}, ${args.to}): ` +
        `${n === 0 ? 'no occurrence without a run' : `${n} run${n === 1 ? '' : 's'}`}\n`,
    );
    if (n > 0)
      io.stdout(
        table(
          ['ID', 'SCHEDULED FOR', 'STATE'],
          body.runs.map((r) => [r.id, r.scheduledFor, r.state]),
        ),
      );
    return EXIT_OK;
  });
}
