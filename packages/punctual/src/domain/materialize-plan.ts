// Which runs a schedule's next occurrences become: the materialisation and misfire (catch-up) rules as one
// pure function. The materializer calls it and the store commits the result atomically. It must never
// perform I/O or read a clock.
//
// Occurrences at or after `now - misfireThresholdMs` are on time and become scheduled runs (up to the
// look-ahead horizon). Older ones were missed (the service was down or paused): those older than the catch-up
// window are recorded as one skipped run (outsideCatchupWindow); the rest follow the misfire policy:
//   skip     every missed occurrence is recorded as skipped (misfire)
//   runOnce  the latest missed occurrence runs, the others are recorded as skipped (misfire)
//   runAll   every missed occurrence runs
// At most `maxCatchup` missed occurrences are looked at one by one; beyond that, the rest of the gap is
// recorded as one skipped run (catchupCap) and the timeline jumps to the present.
//
// A one-off (`@at`, and `@in`, which is stored as `@at`) is "better late than never": its one occurrence
// becomes a run however late it is found (after an outage, or an `@at` saved in the past), whatever the
// misfire policy and the catch-up window, which are about the many occurrences of recurring specs. Only a
// deadline stops it: the run's expiresAt is set as for any run and the claim expires it. So a one-off gets
// the same outcome whether or not its run was written before the outage.
//
// With calendars (`fate`), an occurrence that would run is first asked what its calendars do: excluded or
// not a working day under `roll: "skip"`, it is recorded as skipped (reason `calendar`, details.calendar),
// which maxRuns does not count; rolled, it keeps its nominal scheduledFor (its identity) and is due at the
// rolled instant.

import type { Json } from './json.js';
import { jitterOffset } from './policies.js';
import type { Schedule } from './schedule.js';
import type { RunReason } from './run.js';
import type { OccurrenceFate } from './calendar/apply-calendars.js';

export interface PlannedRun {
  scheduledFor: number;
  dueAt: number;
  expiresAt: number | null;
  state: 'scheduled' | 'skipped';
  reason: RunReason | null;
  details: Record<string, Json> | null;
}

export interface MaterializePlan {
  runs: PlannedRun[];
  /** Next occurrence not materialised yet (null: none remain). */
  nextFireAt: number | null;
  /** Occurrences that became runs to execute (maxRuns counts these). */
  fired: number;
  complete: boolean;
  /**
   * The spec (or its bounds) has no instant left while runs remain allowed: a recurring schedule that can
   * never fire again. A one-off's single occurrence and a reached maxRuns are expected endings: false.
   */
  exhausted: boolean;
}

export interface PlanOptions {
  now: number;
  horizon: number;
  misfireThresholdMs: number;
  /** Most on-time runs written in one step (the rest wait for the next step). */
  maxRunsPerStep: number;
  /** What the schedule's calendars do to an occurrence (absent: no calendars). */
  fate?: ((nominal: number) => OccurrenceFate) | undefined;
}

export function planMaterialization(
  schedule: Pick<
    Schedule,
    'key' | 'nextFireAt' | 'materializedCount' | 'maxRuns' | 'policies' | 'jitterMs' | 'specKind'
  >,
  nextAfter: (after: number) => number | null,
  opts: PlanOptions,
): MaterializePlan {
  const { now, horizon } = opts;
  const p = schedule.policies;
  const runs: PlannedRun[] = [];
  const lateBefore = now - opts.misfireThresholdMs;
  const windowStart = now - p.catchupWindowMs;
  let fired = 0;
  let t = schedule.nextFireAt;
  const remaining = (): boolean =>
    schedule.maxRuns === null || schedule.materializedCount + fired < schedule.maxRuns;

  const plain = (at: number): PlannedRun => ({
    scheduledFor: at,
    dueAt: at + jitterOffset(schedule.key, at, schedule.jitterMs),
    expiresAt: p.deadlineMs === null ? null : at + p.deadlineMs,
    state: 'scheduled',
    reason: null,
    details: null,
  });
  // A run of the occurrence, as its calendars leave it: skipped, rolled, or as it is.
  const toRun = (at: number): PlannedRun => {
    const fate = opts.fate?.(at);
    if (fate === undefined || (fate.kind === 'run' && fate.rolled === null)) return plain(at);
    if (fate.kind === 'dropped') {
      const details: Record<string, Json> = { calendar: fate.calendar };
      if (fate.label !== null) details.label = fate.label;
      if (fate.reason === 'notWorkingDay') details.notWorkingDay = true;
      return skipped(at, 'calendar', details);
    }
    const rolledAt = fate.at;
    return {
      scheduledFor: at,
      dueAt: rolledAt + jitterOffset(schedule.key, at, schedule.jitterMs),
      expiresAt: p.deadlineMs === null ? null : rolledAt + p.deadlineMs,
      state: 'scheduled',
      reason: null,
      details: { rolledTo: rolledAt, roll: fate.rolled!.rule, calendar: fate.rolled!.calendar },
    };
  };
  /** Adds the run of an occurrence; true when it will run (maxRuns counts it). */
  const add = (at: number): boolean => {
    const r = toRun(at);
    runs.push(r);
    return r.state === 'scheduled';
  };
  const skipped = (
    at: number,
    reason: RunReason,
    details: Record<string, Json> | null = null,
  ): PlannedRun => ({
    scheduledFor: at,
    dueAt: at,
    expiresAt: null,
    state: 'skipped',
    reason,
    details,
  });

  // A one-off runs once, late if need be (its deadline, if any, is checked when it is claimed).
  if (schedule.specKind === 'at' && t !== null && t < lateBefore) {
    if (remaining() && add(t)) fired++;
    t = nextAfter(t);
  }

  // Missed occurrences older than the catch-up window: one record for the whole stretch, then jump.
  if (t !== null && t < windowStart && t < lateBefore) {
    const first = t;
    t = nextAfter(Math.min(windowStart, lateBefore) - 1);
    runs.push(skipped(first, 'outsideCatchupWindow', { from: first, until: t ?? windowStart }));
  }

  // Missed occurrences inside the window.
  const missed: number[] = [];
  while (t !== null && t < lateBefore && missed.length < p.maxCatchup) {
    missed.push(t);
    t = nextAfter(t);
  }
  if (t !== null && t < lateBefore) {
    const first = t;
    t = nextAfter(lateBefore - 1);
    runs.push(
      skipped(first, 'catchupCap', { from: first, until: t ?? lateBefore, maxCatchup: p.maxCatchup }),
    );
  }
  missed.forEach((at, i) => {
    const runIt = p.misfire === 'runAll' || (p.misfire === 'runOnce' && i === missed.length - 1);
    if (runIt && remaining()) {
      if (add(at)) fired++;
    } else {
      runs.push(skipped(at, 'misfire'));
    }
  });

  // On-time occurrences up to the horizon.
  let onTime = 0;
  while (t !== null && t <= horizon && remaining() && onTime < opts.maxRunsPerStep) {
    if (add(t)) fired++;
    onTime++;
    t = nextAfter(t);
  }
  const complete = t === null || !remaining();
  const exhausted = t === null && remaining() && schedule.specKind !== 'at';
  return { runs, nextFireAt: complete ? null : t, fired, complete, exhausted };
}
