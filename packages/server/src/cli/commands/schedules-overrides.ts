// `punctual schedules occurrences|skip|move|override|unoverride`: a schedule's upcoming occurrences and the
// override of one occurrence, through a running service's HTTP API. It owns turning answers into lines for
// people; whether an instant is an occurrence, and whether it already started, is the service's decision.

import { EXIT_OK, type CliIo } from '../io.js';
import { seg, withClient } from '../http-client.js';
import { printJson, table } from '../output.js';
import { parseJsonOption } from '../json-option.js';
import type { ScheduleKeyArgs } from './schedules.js';

interface OverrideJson {
  instant: string;
  kind: 'skip' | 'move' | 'payload';
  moveTo: string | null;
  payload: unknown;
  note: string | null;
}

interface OccurrenceJson {
  scheduledFor: string;
  at: string | null;
  override: OverrideJson | null;
}

export interface OccurrenceArgs extends ScheduleKeyArgs {
  instant: string;
  note?: string | undefined;
}

export interface OverrideArgs extends OccurrenceArgs {
  kind: 'skip' | 'move' | 'payload';
  to?: string | undefined;
  payload?: string | undefined;
}

export interface OccurrencesArgs extends ScheduleKeyArgs {
  count?: string | number | undefined;
}

/** What an override does, in a few words. */
export function overrideText(o: OverrideJson | null): string {
  if (o === null) return '';
  const what =
    o.kind === 'skip' ? 'skipped' : o.kind === 'move' ? `moved to ${o.moveTo}` : 'payload overridden';
  return o.note === null ? what : `${what} (${o.note})`;
}

export async function schedulesOccurrences(args: OccurrencesArgs, io: CliIo): Promise<number> {
  return withClient(args, io, async (api) => {
    const { body } = await api.call<{ occurrences: OccurrenceJson[] }>(
      'GET',
      `/v1/schedules/${seg(args.key)}/occurrences`,
      { query: { count: args.count } },
    );
    if (args.json === true) printJson(io, body);
    else
      io.stdout(
        table(
          ['SCHEDULED FOR', 'RUNS AT', 'OVERRIDE'],
          body.occurrences.map((x) => [x.scheduledFor, x.at ?? '-', overrideText(x.override)]),
        ),
      );
    return EXIT_OK;
  });
}

export async function schedulesOverride(args: OverrideArgs, io: CliIo): Promise<number> {
  return withClient(args, io, async (api) => {
    const body: Record<string, unknown> = { kind: args.kind };
    if (args.to !== undefined) body.moveTo = args.to;
    if (args.payload !== undefined) body.payload = parseJsonOption('--payload', args.payload);
    if (args.note !== undefined) body.note = args.note;
    const { body: res } = await api.call<{ override: OverrideJson; run: { id: string } | null }>(
      'PUT',
      `/v1/schedules/${seg(args.key)}/occurrences/${seg(args.instant)}`,
      { body },
    );
    if (args.json === true) printJson(io, res);
    else {
      const run = res.run === null ? '' : `; run ${res.run.id} follows it`;
      io.stdout(`punctual: ${args.key} at ${res.override.instant}: ${overrideText(res.override)}${run}\n`);
    }
    return EXIT_OK;
  });
}

export async function schedulesUnoverride(args: OccurrenceArgs, io: CliIo): Promise<number> {
  return withClient(args, io, async (api) => {
    await api.call('DELETE', `/v1/schedules/${seg(args.key)}/occurrences/${seg(args.instant)}`);
    if (args.json === true) printJson(io, { key: args.key, instant: args.instant, removed: true });
    else io.stdout(`punctual: removed the override of ${args.key} at ${args.instant}\n`);
    return EXIT_OK;
  });
}
