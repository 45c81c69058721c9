// What writing or removing an occurrence override does to the occurrence's run, decided alike by every
// store from what it found inside its transaction: update the pending run (conditionally), insert it, leave
// runs alone, or refuse because the occurrence already started. Pure: it must never touch a database or a
// clock; the stores run the statements.

import { occurrenceStarted } from '../domain/occurrence-override.js';
import type { RunState } from '../domain/run.js';
import type { RunInsert } from './store.js';

/** The run that holds the occurrence's key, or the latest record of the occurrence. */
export interface FoundRun {
  state: RunState;
  reason: string | null;
}

export type OccurrenceAction = 'update' | 'insert' | 'none';

/**
 * `holder`: the run holding the occurrence key; `last`: the latest record of the occurrence (any state);
 * `materialised`: the schedule's materializer went past the instant. `strict` (a write, not a removal)
 * refuses a started occurrence with OCCURRENCE_STARTED; a removal then leaves the runs alone.
 */
export function occurrenceAction(found: {
  run: RunInsert;
  holder: FoundRun | undefined;
  last: FoundRun | undefined;
  materialised: boolean;
  strict: boolean;
  /** A move to before the instant is materialised at once (the materializer would reach it too late). */
  early: boolean;
}): OccurrenceAction {
  const { run, holder, last, strict } = found;
  const refuse = (state: string): OccurrenceAction => {
    if (strict) throw occurrenceStarted(run.scheduleKey, run.scheduledFor, state);
    return 'none';
  };
  if (holder !== undefined) return holder.state === 'scheduled' ? 'update' : refuse(holder.state);
  if (!found.materialised) return found.early && run.state === 'scheduled' ? 'insert' : 'none';
  if (last?.state === 'skipped' && last.reason === 'override')
    return run.state === 'scheduled' ? 'insert' : 'none';
  return refuse(last?.state ?? 'missed');
}
