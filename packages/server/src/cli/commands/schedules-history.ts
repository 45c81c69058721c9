// `punctual schedules history <key>`, `schedules rollback <key> <version>` and `schedules put --dry-run`:
// a schedule's revisions, the rollback to an earlier version, and what a put would do, through a running
// service's HTTP API; the printing of a revision page and the rollback call are shared with calendars. It owns turning answers into lines for people; what a change does is the service's
// decision. A dry run never writes.

import { ArgumentError, EXIT_OK, type CliIo } from '../io.js';
import { seg, withClient, type ClientArgs } from '../http-client.js';
import { printJson, table } from '../output.js';
import { putBody, type SchedulesPutArgs } from '../schedule-put-body.js';
import type { ScheduleJson, ScheduleKeyArgs } from './schedules.js';

type Diff = Record<string, { from: unknown; to: unknown }>;

export interface RevisionJson {
  version: number;
  at: string;
  actor: string | null;
  change: string;
  fromVersion: number | null;
}

interface DryRunJson {
  outcome: 'created' | 'updated' | 'unchanged';
  currentVersion: number | null;
  nextVersion: number;
  diff: Diff;
  nextBefore: string[];
  nextAfter: string[];
  cancelled: { id: string; scheduledFor: string }[];
  cancelledTruncated: boolean;
  droppedOverrides: { instant: string; kind: string }[];
}

export interface SchedulesHistoryArgs extends ScheduleKeyArgs {
  limit?: string | number | undefined;
  cursor?: string | undefined;
}

export interface SchedulesRollbackArgs extends ScheduleKeyArgs {
  version?: string | number | undefined;
}

const short = (v: unknown): string => {
  const text = JSON.stringify(v) ?? 'null';
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

/** One line per changed field: `field: from -> to`. */
export function diffLines(diff: Diff, indent = '  '): string {
  return Object.entries(diff)
    .map(([f, c]) => `${indent}${f}: ${short(c.from)} -> ${short(c.to)}\n`)
    .join('');
}

/** Where a listing of revisions is read and how one revision's diff is printed. */
export interface RevisionListing<R extends RevisionJson> {
  path: string;
  diffText: (r: R) => string;
}

/** Prints a page of revisions, newest first (or the JSON answer with --json). */
export async function printRevisions<R extends RevisionJson>(
  args: ClientArgs & { limit?: string | number | undefined; cursor?: string | undefined },
  io: CliIo,
  listing: RevisionListing<R>,
): Promise<number> {
  return withClient(args, io, async (api) => {
    const { body } = await api.call<{ items: R[]; nextCursor: string | null }>('GET', listing.path, {
      query: { limit: args.limit, cursor: args.cursor },
    });
    if (args.json === true) {
      printJson(io, body);
      return EXIT_OK;
    }
    for (const r of body.items) {
      const from = r.fromVersion === null ? '' : ` (from version ${r.fromVersion})`;
      io.stdout(`version ${r.version}  ${r.at}  ${r.change}${from}  by ${r.actor ?? 'unknown'}\n`);
      io.stdout(listing.diffText(r));
    }
    if (body.items.length === 0) io.stdout('punctual: no revision kept\n');
    if (body.nextCursor !== null) io.stdout(`more: --cursor ${body.nextCursor}\n`);
    return EXIT_OK;
  });
}

export function schedulesHistory(args: SchedulesHistoryArgs, io: CliIo): Promise<number> {
  return printRevisions<RevisionJson & { diff: Diff }>(args, io, {
    path: `/v1/schedules/${seg(args.key)}/revisions`,
    diffText: (r) => diffLines(r.diff, '    '),
  });
}

/** What a rollback names: `schedule k` or `calendar c`, its route, and the version in the answer. */
export interface RollbackTarget<B extends { changed: boolean }> {
  what: string;
  path: string;
  versionOf: (body: B) => number;
}

/** POSTs a rollback to `version` and prints what it did (or the JSON answer with --json). */
export async function rollbackTo<B extends { changed: boolean }>(
  args: ClientArgs & { version?: string | number | undefined },
  io: CliIo,
  target: RollbackTarget<B>,
): Promise<number> {
  return withClient(args, io, async (api) => {
    const version = Number(args.version);
    if (!Number.isInteger(version) || version < 1)
      throw new ArgumentError(`<version> must be a positive integer (got "${String(args.version)}")`);
    const { body } = await api.call<B>('POST', target.path, { body: { version } });
    if (args.json === true) printJson(io, body);
    else if (body.changed)
      io.stdout(
        `punctual: rolled ${target.what} back to the content of version ${version}, ` +
          `now version ${target.versionOf(body)}\n`,
      );
    else io.stdout(`punctual: ${target.what} already has the content of version ${version}: unchanged\n`);
    return EXIT_OK;
  });
}

export function schedulesRollback(args: SchedulesRollbackArgs, io: CliIo): Promise<number> {
  return rollbackTo<{ schedule: ScheduleJson; changed: boolean }>(args, io, {
    what: `schedule ${args.key}`,
    path: `/v1/schedules/${seg(args.key)}/rollback`,
    versionOf: (b) => b.schedule.version,
  });
}

/** `schedules put --dry-run`: the same body as the put, answered with what it would do. */
export async function schedulesPutDryRun(args: SchedulesPutArgs, io: CliIo): Promise<number> {
  return withClient(args, io, async (api) => {
    const body = putBody(args);
    const headers: Record<string, string> = {};
    if (args.ifMatch !== undefined) headers['if-match'] = String(args.ifMatch);
    const res = await api.call<DryRunJson>('PUT', `/v1/schedules/${seg(args.key)}`, {
      body,
      headers,
      query: { dryRun: 'true' },
    });
    const d = res.body;
    if (args.json === true) {
      printJson(io, d);
      return EXIT_OK;
    }
    const version =
      d.outcome === 'unchanged' ? `stays version ${d.nextVersion}` : `would be version ${d.nextVersion}`;
    io.stdout(
      `punctual: dry run, nothing written: schedule ${args.key} would be ${d.outcome} (${version})\n`,
    );
    io.stdout(diffLines(d.diff));
    const rows = Array.from({ length: Math.max(d.nextBefore.length, d.nextAfter.length) }, (_, i) => [
      d.nextBefore[i] ?? '',
      d.nextAfter[i] ?? '',
    ]);
    if (rows.length > 0) io.stdout(table(['NEXT BEFORE', 'NEXT AFTER'], rows));
    const more = d.cancelledTruncated ? ' (and more)' : '';
    if (d.cancelled.length > 0) {
      io.stdout(`would cancel ${d.cancelled.length} pending run(s)${more}:\n`);
      io.stdout(
        table(
          ['ID', 'SCHEDULED FOR'],
          d.cancelled.map((c) => [c.id, c.scheduledFor]),
        ),
      );
    }
    if (d.droppedOverrides.length > 0) {
      io.stdout(`would drop ${d.droppedOverrides.length} override(s) (their occurrences are gone):\n`);
      io.stdout(
        table(
          ['INSTANT', 'KIND'],
          d.droppedOverrides.map((o) => [o.instant, o.kind]),
        ),
      );
    }
    return EXIT_OK;
  });
}
