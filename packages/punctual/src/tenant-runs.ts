// What a tenant does to runs by hand: trigger a schedule now (kind manual), backfill a past range (kind
// backfill), run final runs again (reruns.ts finds them) and cancel a run. Every instant comes from the
// API's clock once per call; it must never insert a run for another tenant's schedule (keys and ids are
// looked up through the tenant's API).

import { compileStored, checkPayload, parseInstant } from './domain/schedule.js';
import type { Json } from './domain/json.js';
import type { Run } from './domain/run.js';
import { PunctualError } from './errors.js';
import { runInsertOf } from './run-insert-of.js';
import { rerunInRange, rerunOne, type RerunRange, type RerunRefused } from './reruns.js';
import type { RunInsert, Transition } from './store/store.js';
import type { TenantApi } from './tenant-api.js';
import type { TenantEngine } from './tenant-engine.js';

/** Runs the schedule now, outside its spec (TenantApi.trigger). */
export async function triggerRun(
  api: TenantApi,
  engine: TenantEngine,
  key: string,
  opts: { payload?: Json },
): Promise<Run> {
  checkPayload(opts.payload);
  const s = await api.require(key);
  const now = api.clock.now();
  const [t] = await api.store.insertRuns(
    [
      runInsertOf(s, 'manual', now, {
        unique: false,
        payload: opts.payload === undefined ? null : opts.payload,
      }),
    ],
    now,
  );
  if (!t) throw new Error('trigger inserted no run');
  engine.bus.emitTransition(t);
  engine.hooks.runsInserted(t.run.dueAt);
  return t.run;
}

/** One run per occurrence in [from, to) that has none yet (TenantApi.backfill). */
export async function backfillRuns(
  api: TenantApi,
  engine: TenantEngine,
  key: string,
  range: { from: string | number | Date; to: string | number | Date },
): Promise<Run[]> {
  const s = await api.require(key);
  const now = api.clock.now();
  const from = parseInstant(range.from, 'from');
  const to = parseInstant(range.to, 'to');
  if (from === null || to === null || to <= from) {
    throw new PunctualError('SCHEDULE_INVALID', 'backfill needs from < to', { field: 'to' });
  }
  if (to > now)
    throw new PunctualError('SCHEDULE_INVALID', 'backfill cannot reach into the future', { field: 'to' });
  const spec = compileStored(s, now);
  const runs: RunInsert[] = [];
  for (let t = spec.nextAfter(from - 1); t !== null && t < to; t = spec.nextAfter(t)) {
    if (runs.length >= s.policies.maxCatchup) {
      throw new PunctualError(
        'SCHEDULE_INVALID',
        `backfill range holds more than maxCatchup (${s.policies.maxCatchup}) occurrences`,
        {
          field: 'to',
        },
      );
    }
    runs.push(runInsertOf(s, 'backfill', t, { unique: true, dueAt: now }));
  }
  const inserted = await api.store.insertRuns(runs, now);
  for (const t of inserted) engine.bus.emitTransition(t);
  if (inserted.length > 0) engine.hooks.runsInserted(now);
  return inserted.map((t) => t.run);
}

/** Cancels a run (TenantApi.cancelRun): RUN_NOT_FOUND, or RUN_NOT_CANCELLABLE when it can no longer be. */
export async function cancelRun(api: TenantApi, engine: TenantEngine, id: string): Promise<Run> {
  const t = await api.store.cancelRun(api.tenantId, id, api.clock.now());
  if (!t) {
    const existing = await api.store.getRun(api.tenantId, id);
    if (!existing) throw new PunctualError('RUN_NOT_FOUND', `no run "${id}"`, { id });
    throw new PunctualError('RUN_NOT_CANCELLABLE', `run "${id}" is already ${existing.run.state}`, {
      id,
      state: existing.run.state,
    });
  }
  engine.bus.emitTransition(t);
  return t.run;
}

/** Runs a final run again (TenantApi.rerun). */
export async function rerunRun(api: TenantApi, engine: TenantEngine, id: string): Promise<Run> {
  const now = api.clock.now();
  return announceReruns(engine, await rerunOne(api.store, api.tenantId, id, now), now)[0]!;
}

/** Runs again the schedule's runs of a range in the given states (TenantApi.rerunRange). */
export async function rerunRunsInRange(
  api: TenantApi,
  engine: TenantEngine,
  key: string,
  range: RerunRange,
  opts: { beforeWrite?: (count: number) => Promise<void> },
): Promise<{ runs: Run[]; refused: RerunRefused[] }> {
  const s = await api.require(key);
  const now = api.clock.now();
  const res = await rerunInRange(api.store, s, range, now, opts.beforeWrite);
  return { runs: announceReruns(engine, res.transitions, now), refused: res.refused };
}

/** Announces the runs a rerun made scheduled again (their transitions, the worker woken for `now`). */
function announceReruns(engine: TenantEngine, transitions: Transition[], now: number): Run[] {
  for (const t of transitions) engine.bus.emitTransition(t);
  if (transitions.length > 0) engine.hooks.runsInserted(now);
  return transitions.map((t) => t.run);
}
