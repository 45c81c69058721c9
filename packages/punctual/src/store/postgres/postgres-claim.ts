// The worker's claim of due runs, in one transaction: pick due runs by priority then due time with FOR
// UPDATE SKIP LOCKED (instances share the work), apply deadlines and overlap policies (the pure decideClaim()
// decides, this file applies), then lease the winners. It must stay an index search with millions of future
// runs, and must never read a clock (`now` is a parameter).
//
// Why per priority level: ORDER BY priority DESC, due_at over `due_at <= now` cannot seek in the
// (priority DESC, due_at, id) index, so one query would walk every pending run of the higher levels. We list
// the distinct priorities (one index probe each) and search each level's due range in order.
//
// Overlap across instances: two instances could each lock a *different* due run of one schedule and both see
// "nothing running". So before deciding for a schedule whose overlap is not `allow`, the claim takes a
// transaction-scoped advisory lock on it with pg_try_advisory_xact_lock, and only then reads whether it has a
// running run (a later statement sees every claim committed before the lock was won). A schedule whose lock
// another instance holds is left alone: its runs stay scheduled for the next claim. Never waiting for that
// lock is what keeps the claim free of deadlocks.

import { decideClaim, WAITING_OVERLAPS } from '../../domain/claim-decision.js';
import type { Schedule } from '../../domain/schedule.js';
import type { ClaimedRun, ClaimRequest, ClaimResult, Transition } from '../store.js';
import type { PgDb } from './postgres-database.js';
import type { PgQueryable } from './postgres-driver.js';
import { toRun, toSchedule, type RunRow, type ScheduleRow } from './postgres-rows.js';

type Id = string;

/** Candidates examined per claim, as a multiple of the limit (expired, skipped and waiting runs use some). */
const EXAMINE_FACTOR = 4;

/** Distinct priorities of scheduled runs, highest first: one probe of runs_claim per level. */
export function priorityLevelsSql(s: string): string {
  return `
    WITH RECURSIVE level(p) AS (
      SELECT max(priority) FROM ${s}.runs WHERE state = 'scheduled'
      UNION ALL
      SELECT (SELECT max(priority) FROM ${s}.runs WHERE state = 'scheduled' AND priority < level.p)
        FROM level WHERE level.p IS NOT NULL)
    SELECT p FROM level WHERE p IS NOT NULL`;
}

/**
 * Searches runs_claim (priority = $1, due_at <= $2). Waiting runs (overlap in $5) of a schedule that has a
 * running run are left out so they never fill a page; the keyset ($3, $4) continues a level across pages.
 * Rows another claim holds are skipped, not waited for. OFFSET 0 keeps the EXISTS a per-row probe of
 * runs_schedule_pending, made only for buffer* candidates; without it the planner hashes every running run
 * once per claim (see docs/postgres.md).
 */
export function claimCandidatesSql(s: string): string {
  return `
    SELECT * FROM ${s}.runs AS r
     WHERE r.state = 'scheduled' AND r.priority = $1 AND r.due_at <= $2
       AND (r.due_at, r.id) > ($3::bigint, $4::bigint)
       AND NOT (r.overlap = ANY($5::text[])
                AND EXISTS (SELECT 1 FROM ${s}.runs AS x
                             WHERE x.schedule_id = r.schedule_id AND x.state = 'running'
                             OFFSET 0))
     ORDER BY r.due_at, r.id
     LIMIT $6
     FOR UPDATE OF r SKIP LOCKED`;
}

/** One step of the claim, in decision order; applied in batches, reported in this order. */
type Step =
  | { kind: 'finish'; id: Id; state: 'expired' | 'skipped' | 'cancelled'; reason: string }
  | { kind: 'cancelRunning'; scheduleId: Id }
  | { kind: 'claim'; id: Id; schedule: Schedule }
  | { kind: 'skipOtherDue'; scheduleId: Id };

export function claimRuns(db: PgDb, req: ClaimRequest): Promise<ClaimResult> {
  if (req.limit <= 0) return Promise.resolve({ claimed: [], transitions: [] });
  return db.tx((c) => claimIn(db, c, req));
}

/** claimRuns inside the caller's transaction (settleAndClaim: one commit for both). */
export function claimIn(db: PgDb, c: PgQueryable, req: ClaimRequest): Promise<ClaimResult> {
  if (req.limit <= 0) return Promise.resolve({ claimed: [], transitions: [] });
  return new Claim(db, c, req).run();
}

class Claim {
  readonly #claimed: ClaimedRun[] = [];
  readonly #transitions: Transition[] = [];
  /** Schedules of the runs seen, by id (null: the schedule was deleted). */
  readonly #schedules = new Map<Id, Schedule | null>();
  /** Non-`allow` schedules this transaction holds the claim lock of. */
  readonly #locked = new Set<Id>();
  /** Locked schedules that had a running run when the lock was won. */
  readonly #running = new Set<Id>();
  readonly #claimedIn = new Set<Id>();
  /** bufferOne schedules claimed in this batch: their other due runs are skipped, not decided. */
  readonly #buffered = new Set<Id>();
  #budget: number;
  #claims = 0;

  constructor(
    private readonly db: PgDb,
    private readonly c: PgQueryable,
    private readonly req: ClaimRequest,
  ) {
    this.#budget = req.limit * EXAMINE_FACTOR;
  }

  async run(): Promise<ClaimResult> {
    const { rows } = await this.c.query<{ p: number }>(priorityLevelsSql(this.db.s));
    for (const { p } of rows) {
      if (this.#full()) break;
      await this.#claimLevel(p);
    }
    return { claimed: this.#claimed, transitions: this.#transitions };
  }

  #full(): boolean {
    return this.#claims >= this.req.limit || this.#budget <= 0;
  }

  async #claimLevel(priority: number): Promise<void> {
    let afterDue = Number.MIN_SAFE_INTEGER;
    let afterId = '0';
    while (!this.#full()) {
      // Lock no more rows than can still be claimed: other instances skip locked rows, so extra ones would only
      // hide work from them. Rows that end up expired, skipped or waiting are made up by the next page.
      const limit = Math.min(this.#budget, this.req.limit - this.#claims);
      const { rows: page } = await this.c.query<RunRow>(claimCandidatesSql(this.db.s), [
        priority,
        this.req.now,
        afterDue,
        afterId,
        WAITING_OVERLAPS,
        limit,
      ]);
      await this.#load(page);
      const steps: Step[] = [];
      for (const row of page) {
        if (this.#full()) break;
        this.#budget--;
        this.#decide(row, steps);
      }
      await this.#apply(steps);
      const last = page[page.length - 1];
      if (last === undefined || page.length < limit) return;
      afterDue = Number(last.due_at);
      afterId = String(last.id);
    }
  }

  /** Loads, once per batch, the schedules of a page; locks the non-`allow` ones and reads their running state. */
  async #load(page: RunRow[]): Promise<void> {
    const fresh = [...new Set(page.map((r) => String(r.schedule_id)))].filter(
      (id) => !this.#schedules.has(id),
    );
    if (fresh.length === 0) return;
    for (const id of fresh) this.#schedules.set(id, null);
    const { rows } = await this.c.query<ScheduleRow>(
      `SELECT * FROM ${this.db.s}.schedules WHERE id = ANY($1::bigint[])`,
      [fresh],
    );
    for (const row of rows) this.#schedules.set(String(row.id), toSchedule(row));
    const guarded = fresh.filter((id) =>
      page.some((r) => String(r.schedule_id) === id && r.overlap !== 'allow'),
    );
    if (guarded.length === 0) return;
    // Ascending order, try-only: no two claims ever wait on each other's schedule locks.
    const { rows: won } = await this.c.query<{ id: number | string }>(
      `SELECT id FROM unnest($1::bigint[]) AS id
        WHERE pg_try_advisory_xact_lock(hashtextextended($2 || '.claim.' || id::text, 0))`,
      [guarded.sort((a, b) => Number(a) - Number(b)), this.db.schema],
    );
    const locked = won.map((r) => String(r.id));
    for (const id of locked) this.#locked.add(id);
    if (locked.length === 0) return;
    const { rows: running } = await this.c.query<{ schedule_id: number | string }>(
      `SELECT DISTINCT schedule_id FROM ${this.db.s}.runs
        WHERE schedule_id = ANY($1::bigint[]) AND state = 'running'`,
      [locked],
    );
    for (const r of running) this.#running.add(String(r.schedule_id));
  }

  #decide(row: RunRow, steps: Step[]): void {
    const id = String(row.id);
    const sid = String(row.schedule_id);
    const schedule = this.#schedules.get(sid) ?? null;
    if (schedule === null) {
      // Its schedule was deleted after this run went back to scheduled (a retry): it has nothing to run.
      steps.push({ kind: 'finish', id, state: 'cancelled', reason: 'deleted' });
      return;
    }
    if (this.#buffered.has(sid)) return; // skipped with the schedule's other due runs
    const decision = decideClaim(
      { expiresAt: row.expires_at === null ? null : Number(row.expires_at), overlap: row.overlap },
      { now: this.req.now, running: this.#running.has(sid), claimedInBatch: this.#claimedIn.has(sid) },
    );
    if (decision === 'expire') {
      steps.push({ kind: 'finish', id, state: 'expired', reason: 'deadline' });
      return;
    }
    if (row.overlap !== 'allow' && !this.#locked.has(sid)) return; // another instance is deciding it
    switch (decision) {
      case 'skip':
        steps.push({ kind: 'finish', id, state: 'skipped', reason: 'overlap' });
        return;
      case 'wait':
        return;
      case 'cancelRunningThenClaim':
        steps.push({ kind: 'cancelRunning', scheduleId: sid });
        break;
      case 'claim':
        break;
    }
    steps.push({ kind: 'claim', id, schedule });
    this.#claims++;
    this.#claimedIn.add(sid);
    if (row.overlap === 'bufferOne') {
      this.#buffered.add(sid);
      steps.push({ kind: 'skipOtherDue', scheduleId: sid });
    }
  }

  /** Applies a page's steps in a few statements, then reports their transitions in decision order. */
  async #apply(steps: Step[]): Promise<void> {
    if (steps.length === 0) return;
    const { s } = this.db;
    const now = this.req.now;
    const finishes = steps.filter((x) => x.kind === 'finish');
    const finished = await this.#rows(
      finishes.length > 0,
      `UPDATE ${s}.runs AS r SET state = f.state, reason = f.reason, finished_at = $4
         FROM unnest($1::bigint[], $2::text[], $3::text[]) AS f(id, state, reason)
        WHERE r.id = f.id AND r.state = 'scheduled'
        RETURNING r.*`,
      [finishes.map((f) => f.id), finishes.map((f) => f.state), finishes.map((f) => f.reason), now],
    );
    // cancelPrevious: the running runs lose their lease, so their workers' settlements are refused.
    const cancelled = await this.#rows(
      steps.some((x) => x.kind === 'cancelRunning'),
      `UPDATE ${s}.runs SET state = 'cancelled', reason = 'overlap', finished_at = $2,
              lease_owner = NULL, lease_token = NULL, lease_expires_at = NULL
        WHERE schedule_id = ANY($1::bigint[]) AND state = 'running'
        RETURNING *`,
      [steps.flatMap((x) => (x.kind === 'cancelRunning' ? [x.scheduleId] : [])), now],
    );
    const claims = steps.filter((x) => x.kind === 'claim');
    const leased = await this.#rows(
      claims.length > 0,
      `UPDATE ${s}.runs
          SET state = 'running', attempt = attempt + 1, lease_owner = $2,
              lease_token = gen_random_uuid()::text, lease_expires_at = $3::bigint + $4::bigint,
              attempt_started_at = $3, started_at = COALESCE(started_at, $3)
        WHERE id = ANY($1::bigint[]) AND state = 'scheduled'
        RETURNING *`,
      [claims.map((x) => x.id), this.req.workerId, now, this.req.leaseMs],
    );
    // bufferOne keeps one buffered run, the one just claimed: the schedule's other due runs are skipped.
    // Rows another claim holds are left to it (SKIP LOCKED); a later claim of this schedule skips them.
    const bufferSkipped = await this.#rows(
      steps.some((x) => x.kind === 'skipOtherDue'),
      `UPDATE ${s}.runs SET state = 'skipped', reason = 'overlap', finished_at = $2
        WHERE id IN (SELECT id FROM ${s}.runs
                      WHERE schedule_id = ANY($1::bigint[]) AND state = 'scheduled' AND due_at <= $2
                      FOR UPDATE SKIP LOCKED)
        RETURNING *`,
      [steps.flatMap((x) => (x.kind === 'skipOtherDue' ? [x.scheduleId] : [])), now],
    );

    const byId = (rows: RunRow[]) => new Map(rows.map((r) => [String(r.id), r]));
    const bySchedule = (rows: RunRow[]) => {
      const m = new Map<Id, RunRow[]>();
      for (const r of [...rows].sort((a, b) => Number(a.id) - Number(b.id))) {
        const k = String(r.schedule_id);
        m.set(k, [...(m.get(k) ?? []), r]);
      }
      return m;
    };
    const finishedById = byId(finished);
    const leasedById = byId(leased);
    const cancelledBySchedule = bySchedule(cancelled);
    const skippedBySchedule = bySchedule(bufferSkipped);
    for (const step of steps) {
      if (step.kind === 'finish') {
        const row = finishedById.get(step.id);
        if (row) this.#transitions.push({ run: toRun(row), from: 'scheduled', to: step.state });
      } else if (step.kind === 'cancelRunning') {
        for (const row of cancelledBySchedule.get(step.scheduleId) ?? []) {
          this.#transitions.push({ run: toRun(row), from: 'running', to: 'cancelled' });
        }
        cancelledBySchedule.delete(step.scheduleId);
      } else if (step.kind === 'claim') {
        const row = leasedById.get(step.id);
        if (!row) continue;
        const run = toRun(row);
        this.#claimed.push({ run, schedule: step.schedule, token: row.lease_token! });
        this.#transitions.push({ run, from: 'scheduled', to: 'running' });
      } else {
        for (const row of skippedBySchedule.get(step.scheduleId) ?? []) {
          this.#transitions.push({ run: toRun(row), from: 'scheduled', to: 'skipped' });
        }
        skippedBySchedule.delete(step.scheduleId);
      }
    }
  }

  async #rows(run: boolean, text: string, values: unknown[]): Promise<RunRow[]> {
    if (!run) return [];
    return (await this.c.query<RunRow>(text, values)).rows;
  }
}
