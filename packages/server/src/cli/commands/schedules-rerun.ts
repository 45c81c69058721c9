// `punctual schedules rerun <key> --from --to [--state S]...`: runs again the final runs of a schedule whose
// scheduledFor is in [from, to), through a running service's HTTP API. It owns turning the options into the
// request body and the answer into lines for people; which runs may run again is the service's decision.

import { RERUNNABLE_STATES } from 'punctual';
import { ArgumentError, EXIT_OK, type CliIo } from '../io.js';
import { seg, withClient } from '../http-client.js';
import { printJson, table } from '../output.js';
import type { ScheduleKeyArgs } from './schedules.js';

export interface SchedulesRerunArgs extends ScheduleKeyArgs {
  /** The first instant of the range (inclusive), ISO-8601 with Z or an offset. */
  from?: string | undefined;
  /** The end of the range (exclusive). */
  to?: string | undefined;
  /** The states of the runs to run again (default: dead). */
  state?: string[] | undefined;
}

interface RerunAnswer {
  runs: { id: string; scheduledFor: string; state: string }[];
  refused: { id: string; code: string; message: string }[];
}

export async function schedulesRerun(args: SchedulesRerunArgs, io: CliIo): Promise<number> {
  return withClient(args, io, async (api) => {
    if (args.from === undefined || args.to === undefined) {
      throw new ArgumentError(
        '--from and --to are required: the range [from, to) as ISO-8601 instants with Z or an offset',
      );
    }
    const states = args.state !== undefined && args.state.length > 0 ? args.state : undefined;
    for (const s of states ?? []) {
      if (!(RERUNNABLE_STATES as readonly string[]).includes(s)) {
        throw new ArgumentError(
          `--state must be a final state: ${RERUNNABLE_STATES.join(', ')} (got "${s}")`,
        );
      }
    }
    const { body } = await api.call<RerunAnswer>('POST', `/v1/schedules/${seg(args.key)}/rerun`, {
      body: { from: args.from, to: args.to, ...(states ? { states } : {}) },
    });
    if (args.json === true) {
      printJson(io, body);
      return EXIT_OK;
    }
    const n = body.runs.length;
    io.stdout(
      `punctual: reran schedule ${args.key} over [${args.from}, ${args.to}) ` +
        `(${(states ?? ['dead']).join(', ')}): ${n === 0 ? 'no run' : `${n} run${n === 1 ? '' : 's'}`} scheduled again\n`,
    );
    if (n > 0)
      io.stdout(
        table(
          ['ID', 'SCHEDULED FOR', 'STATE'],
          body.runs.map((r) => [r.id, r.scheduledFor, r.state]),
        ),
      );
    for (const r of body.refused) io.stdout(`  not rerun: ${r.id}: ${r.code}: ${r.message}\n`);
    return EXIT_OK;
  });
}
