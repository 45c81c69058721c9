// `punctual apply -f schedules.yaml`: makes the API key's tenant hold the schedules a file says. Reads and
// judges the file (read-schedule-file.ts, plan-changes.ts), prints the plan (print-plan.ts), asks before
// writing (unless --yes; refuses without a terminal), then sends each change: an update carries the version
// the plan saw (If-Match), so a schedule changed meanwhile is reported, never overwritten. It owns the
// order of those steps and the exit code; it never judges a schedule itself (the library does).

import { readFileSync } from 'node:fs';
import { ArgumentError, EXIT_OK, EXIT_REJECTED, EXIT_USAGE, type CliIo } from '../io.js';
import { ApiError, seg, withClient, type ApiClient, type ClientArgs } from '../http-client.js';
import { printError, printJson } from '../output.js';
import { computePlan, type PlannedChange } from '../schedule-file/plan-changes.js';
import { planJson, planText } from '../schedule-file/print-plan.js';
import { formatOf, readScheduleFile } from '../schedule-file/read-schedule-file.js';
import { putBodyOf, type ScheduleView } from '../schedule-file/schedule-content.js';

/** The CLI's code for an apply that needs a "yes" it cannot ask for (exit 2). */
export const CONFIRMATION_REQUIRED = 'CONFIRMATION_REQUIRED';

export interface ApplyArgs extends ClientArgs {
  /** The schedules file (YAML or JSON). */
  file?: string | undefined;
  /** Apply without asking. */
  yes?: boolean | undefined;
  /** Print the plan only. */
  dryRun?: boolean | undefined;
  /** Also delete the stored schedules the file does not name. */
  prune?: boolean | undefined;
  /** Apply the accepted entries even when others are refused. */
  partial?: boolean | undefined;
  /** Reads the file. Default: fs. */
  readFile?: ((path: string) => string) | undefined;
  /** Asks a yes/no question on the terminal; absent when there is no terminal. */
  confirm?: ((question: string) => Promise<boolean>) | undefined;
}

/** What became of one change. */
export interface ChangeResult {
  kind: PlannedChange['kind'];
  key: string;
  line?: number | undefined;
  ok: boolean;
  version?: number | undefined;
  error?: { code: string; message: string } | undefined;
}

interface Page {
  items: ScheduleView[];
  nextCursor: string | null;
}

/** Every schedule of the tenant, page by page. */
export async function fetchAllSchedules(api: ApiClient): Promise<ScheduleView[]> {
  const all: ScheduleView[] = [];
  let cursor: string | undefined;
  for (;;) {
    const { body } = await api.call<Page>('GET', '/v1/schedules', { query: { limit: 1000, cursor } });
    all.push(...body.items);
    if (body.nextCursor === null) return all;
    cursor = body.nextCursor;
  }
}

/** Refuses (VERSION_CONFLICT, like the API) when the stored schedule is no longer the version the plan saw. */
async function checkVersion(api: ApiClient, c: PlannedChange): Promise<void> {
  let actual: number | null;
  try {
    actual = (await api.call<ScheduleView>('GET', `/v1/schedules/${seg(c.key)}`)).body.version;
  } catch (e) {
    if (!(e instanceof ApiError) || e.code !== 'SCHEDULE_NOT_FOUND') throw e;
    actual = null;
  }
  if (actual !== c.version) {
    const message = `schedule "${c.key}" changed since the plan (version ${String(c.version)}, now ${actual ?? 'deleted'})`;
    throw new ApiError(409, 'VERSION_CONFLICT', message, { error: { code: 'VERSION_CONFLICT', message } });
  }
}

/** Sends one change; returns the schedule's version after it (none after a delete). */
async function send(api: ApiClient, c: PlannedChange): Promise<number | undefined> {
  const path = `/v1/schedules/${seg(c.key)}`;
  if (c.kind === 'delete') {
    await checkVersion(api, c);
    await api.call('DELETE', path);
    return undefined;
  }
  let version = c.version;
  if (c.kind === 'create' || c.contentChanges === true) {
    const headers: Record<string, string> = c.kind === 'update' ? { 'if-match': String(c.version) } : {};
    const res = await api.call<ScheduleView>('PUT', path, { body: putBodyOf(c.entry!), headers });
    version = res.body.version;
  } else await checkVersion(api, c);
  if (c.stateChange !== undefined) {
    const body = c.stateChange === 'pause' ? { body: {} } : {};
    version = (await api.call<ScheduleView>('POST', `${path}/${c.stateChange}`, body)).body.version;
  }
  return version;
}

const DONE: Record<PlannedChange['kind'], string> = {
  create: 'created',
  update: 'updated',
  delete: 'deleted',
  unchanged: 'unchanged',
};

export async function apply(args: ApplyArgs, io: CliIo): Promise<number> {
  const json = args.json === true;
  return withClient(args, io, async (api) => {
    if (args.file === undefined) throw new ArgumentError('-f FILE is required: the schedules file to apply');
    let text: string;
    try {
      text = (args.readFile ?? ((p: string) => readFileSync(p, 'utf8')))(args.file);
    } catch (e) {
      throw new ArgumentError(`-f: cannot read ${args.file}: ${(e as Error).message}`);
    }
    const entries = readScheduleFile(text, formatOf(args.file, text));
    const current = await fetchAllSchedules(api);
    const plan = computePlan({ entries, current, now: io.now(), prune: args.prune === true });
    const out = (extra: Record<string, unknown>): void => printJson(io, { plan: planJson(plan), ...extra });
    if (!json) io.stdout(planText(plan));
    const refused = plan.refused.length > 0;
    if (refused && args.partial !== true) {
      if (json) out({ applied: false });
      else
        io.stderr(
          `punctual: nothing applied: ${plan.refused.length} schedule(s) refused ` +
            '(fix them, or --partial to apply the others)\n',
        );
      return EXIT_REJECTED;
    }
    const todo = plan.changes.filter((c) => c.kind !== 'unchanged');
    if (args.dryRun === true || todo.length === 0) {
      if (json) out({ applied: false });
      else if (todo.length === 0) io.stdout('Nothing to change.\n');
      return refused ? EXIT_REJECTED : EXIT_OK;
    }
    if (args.yes !== true) {
      if (args.confirm === undefined) {
        return printError(
          io,
          json,
          CONFIRMATION_REQUIRED,
          'not applied: no terminal to ask on; pass --yes to apply, or --dry-run to print the plan only',
          EXIT_USAGE,
        );
      }
      if (!(await args.confirm('Apply? [y/N] '))) {
        if (json) out({ applied: false });
        else io.stdout('Not applied; nothing changed.\n');
        return EXIT_REJECTED;
      }
    }
    const results: ChangeResult[] = [];
    for (const c of todo) {
      try {
        const version = await send(api, c);
        results.push({ kind: c.kind, key: c.key, line: c.line, ok: true, version });
        if (!json) {
          const v = version === undefined ? '' : ` (version ${version})`;
          io.stdout(`punctual: ${DONE[c.kind]} ${c.key}${v}\n`);
        }
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        results.push({
          kind: c.kind,
          key: c.key,
          line: c.line,
          ok: false,
          error: { code: e.code, message: e.message },
        });
        if (!json) {
          const where = c.line === undefined ? '' : ` (line ${c.line})`;
          io.stderr(`punctual: ${c.kind} ${c.key}${where} failed: ${e.code}: ${e.message}\n`);
        }
      }
    }
    const failed = results.filter((r) => !r.ok).length;
    if (json) out({ applied: true, results });
    else {
      const n = (k: PlannedChange['kind']): number => results.filter((r) => r.ok && r.kind === k).length;
      io.stdout(
        `Applied: ${n('create')} created, ${n('update')} updated, ${n('delete')} deleted` +
          `${failed > 0 ? `; ${failed} failed` : ''}.\n`,
      );
    }
    return failed > 0 || refused ? EXIT_REJECTED : EXIT_OK;
  });
}
