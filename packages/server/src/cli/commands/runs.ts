// `punctual runs ls`, `punctual runs get <id>` and `punctual runs cancel <id>`: a tenant's runs through a
// running service's HTTP API (--url, --key), newest first, with the API's filters. Only `cancel` changes
// anything; with --json every command prints the API's JSON as it came.

import { EXIT_OK, type CliIo } from '../io.js';
import { seg, withClient, type ClientArgs } from '../http-client.js';
import { printJson, table } from '../output.js';

export interface RunJson {
  id: string;
  scheduleKey: string;
  occurrenceId: string;
  kind: string;
  state: string;
  scheduledFor: string;
  startedAt: string | null;
  finishedAt: string | null;
  attempt: number;
  maxAttempts: number;
  reason: string | null;
  error: {
    code?: string;
    message: string;
    details?: { logs?: string[]; stack?: string } & Record<string, unknown>;
  } | null;
  result: unknown;
  attempts?: {
    attempt: number;
    startedAt: string;
    finishedAt: string;
    outcome: string;
    error: RunJson['error'];
  }[];
}

export interface RunsListArgs extends ClientArgs {
  /** Only this schedule's runs. */
  schedule?: string | undefined;
  state?: string | undefined;
  /** scheduledFor at or after (ISO-8601). */
  from?: string | undefined;
  /** scheduledFor before (ISO-8601). */
  to?: string | undefined;
  limit?: string | number | undefined;
  cursor?: string | undefined;
}

export interface RunGetArgs extends ClientArgs {
  id: string;
}

/** A recorded error's details as indented lines: other fields, then the stack, then the script's logs. */
export function errorDetailLines(e: NonNullable<RunJson['error']>, indent: string): string[] {
  const { logs, stack, ...other } = e.details ?? {};
  const out: string[] = [];
  if (Object.keys(other).length > 0) out.push(`${indent}details ${JSON.stringify(other)}`);
  if (typeof stack === 'string') {
    out.push(`${indent}stack`);
    for (const line of stack.split('\n')) out.push(`${indent}  ${line}`);
  }
  if (Array.isArray(logs) && logs.length > 0) {
    out.push(`${indent}logs`);
    for (const line of logs) for (const part of line.split('\n')) out.push(`${indent}  ${part}`);
  }
  return out;
}

const outcome = (r: RunJson): string => r.error?.code ?? r.error?.message ?? r.reason ?? '';

export async function runsList(args: RunsListArgs, io: CliIo): Promise<number> {
  return withClient(args, io, async (api) => {
    const { body } = await api.call<{ items: RunJson[]; nextCursor: string | null }>('GET', '/v1/runs', {
      query: {
        scheduleKey: args.schedule,
        state: args.state,
        from: args.from,
        to: args.to,
        limit: args.limit,
        cursor: args.cursor,
      },
    });
    if (args.json === true) {
      printJson(io, body);
      return EXIT_OK;
    }
    const rows = body.items.map((r) => [
      r.id,
      r.scheduleKey,
      r.state,
      r.kind,
      r.scheduledFor,
      `${r.attempt}/${r.maxAttempts}`,
      outcome(r),
    ]);
    io.stdout(table(['ID', 'SCHEDULE', 'STATE', 'KIND', 'SCHEDULED FOR', 'ATTEMPT', 'REASON'], rows));
    if (body.nextCursor !== null) io.stdout(`(more: --cursor ${body.nextCursor})\n`);
    return EXIT_OK;
  });
}

export async function runsGet(args: RunGetArgs, io: CliIo): Promise<number> {
  return withClient(args, io, async (api) => {
    const { body: r } = await api.call<RunJson>('GET', `/v1/runs/${seg(args.id)}`);
    if (args.json === true) {
      printJson(io, r);
      return EXIT_OK;
    }
    const lines = [
      `run          ${r.id} (${r.kind}) of ${r.scheduleKey}`,
      `occurrence   ${r.occurrenceId}`,
      `state        ${r.state}${r.reason ? ` (${r.reason})` : ''}`,
      `scheduled    ${r.scheduledFor}`,
      `started      ${r.startedAt ?? '-'}`,
      `finished     ${r.finishedAt ?? '-'}`,
      `attempt      ${r.attempt}/${r.maxAttempts}`,
    ];
    if (r.error) {
      lines.push(`error        ${r.error.code ? `${r.error.code}: ` : ''}${r.error.message}`);
      lines.push(...errorDetailLines(r.error, '             '));
    }
    if (r.result !== null && r.result !== undefined) lines.push(`result       ${JSON.stringify(r.result)}`);
    if ((r.attempts ?? []).length > 0) lines.push('attempts');
    for (const a of r.attempts ?? []) {
      const err = a.error ? `  ${a.error.code ?? ''} ${a.error.message}`.trimEnd() : '';
      lines.push(`  #${a.attempt} ${a.startedAt} → ${a.finishedAt} ${a.outcome}${err}`);
      if (a.error) lines.push(...errorDetailLines(a.error, '      '));
    }
    io.stdout(`${lines.join('\n')}\n`);
    return EXIT_OK;
  });
}

export async function runsCancel(args: RunGetArgs, io: CliIo): Promise<number> {
  return withClient(args, io, async (api) => {
    const { body: r } = await api.call<RunJson>('POST', `/v1/runs/${seg(args.id)}/cancel`);
    if (args.json === true) printJson(io, r);
    else io.stdout(`punctual: cancelled run ${r.id} of ${r.scheduleKey} (scheduled for ${r.scheduledFor})\n`);
    return EXIT_OK;
  });
}

export async function runsRerun(args: RunGetArgs, io: CliIo): Promise<number> {
  return withClient(args, io, async (api) => {
    const { body: r } = await api.call<RunJson>('POST', `/v1/runs/${seg(args.id)}/rerun`);
    if (args.json === true) printJson(io, r);
    else {
      io.stdout(
        `punctual: run ${r.id} of ${r.scheduleKey} (scheduled for ${r.scheduledFor}) is scheduled again\n`,
      );
    }
    return EXIT_OK;
  });
}
