// The worker's claim of due runs: pick due runs by priority then due time with FOR UPDATE SKIP LOCKED
// (instances share the work), lease at once the ones that need no decision, apply deadlines and overlap
// policies to the rest (the pure decideClaim() decides, this file applies), and lease the winners. It must
// stay an index search with millions of future runs and never read a clock (`now` is a parameter). The
// statements are in postgres-claim-sql.ts; why each is shaped so is written there and in docs/postgres.md.
//
// The fast path: a candidate with overlap `allow`, no passed deadline and a schedule is leased by the page
// statement itself, which is its own transaction; a claim of only such runs is one round trip. Candidates
// that need a decision make a transaction that reads them again, locked, and decides them; so does a claim
// to be shared among several tenants with runs due (fair across tenants, as the SQLite store).
//
// Overlap across instances: two instances could each lock a *different* due run of one schedule and both see
// "nothing running". So before deciding for a schedule whose overlap is not `allow`, the claim takes a
// transaction-scoped advisory lock on it with pg_try_advisory_xact_lock, and only then reads whether it has a
// running run (a later statement sees every claim committed before the lock was won). A schedule whose lock
// another instance holds is left alone: its runs stay scheduled for the next claim. Never waiting for that
// lock is what keeps the claim free of deadlocks.

import { claimSkipsOtherDue, decideClaim, WAITING_OVERLAPS } from '../../domain/claim-decision.js';
import { claimShares, shareUntil } from '../common/claim-shares.js';
import { claimDueBy } from '../common/claim-window.js';
import type { Schedule } from '../../domain/schedule.js';
import type { ClaimedRun, ClaimRequest, ClaimResult, Settlement, Transition } from '../store.js';
import {
  claimNextPageSql,
  claimPageSql,
  applySql,
  claimTenantPageSql,
  dueTenantsSql,
  settleAndClaimSql,
} from './postgres-claim-sql.js';
import type { PgDb } from './postgres-database.js';
import type { PgQueryable } from './postgres-driver.js';
import { sendable, settledTransitions, settleParams, settleRuns } from './postgres-leases.js';
import { cancelOrphans, resolveSchedules } from './postgres-claim-schedules.js';
import { toRun, type RunRow } from './postgres-rows.js';

export { claimCandidatesSql, priorityLevelsSql } from './postgres-claim-sql.js';

type Id = string;

/** A candidate of the page statement: leased already (fast path), or left for a decision. */
type PageRow = RunRow & {
  schedule_version_now: number | null;
  leased: boolean;
  /** A row all NULL but this: the claim must be shared among tenants (claimCtes). */
  fair: boolean;
};

/** Candidates examined per claim, as a multiple of the limit (expired, skipped and waiting runs use some). */
const EXAMINE_FACTOR = 4;

const noClaim = (): ClaimResult => ({ claimed: [], transitions: [] });

/** The page statement's values after `now`: page size, waiting overlaps, worker, lease, ids left, due by. */
function pageValues(req: ClaimRequest, limit: number, left: Id[]): unknown[] {
  return [limit, WAITING_OVERLAPS, req.workerId, req.leaseMs, left, claimDueBy(req)];
}

/**
 * Claims due runs. The first page is one statement (its own transaction): when every candidate takes the
 * fast path, that is the whole claim. Candidates that need a decision make a transaction that decides them.
 */
export async function claimRuns(db: PgDb, req: ClaimRequest): Promise<ClaimResult> {
  if (req.limit <= 0) return noClaim();
  const rows = await db.hotQuery<PageRow>(
    db.named('claim.page', claimPageSql, [req.now, ...pageValues(req, req.limit, [])]),
  );
  return afterFirstPage(db, req, rows);
}

/**
 * Settles, then claims (settleAndClaim). The settlement and the first claim page are one statement, so one
 * commit; a claim that needs decisions goes on in a transaction of its own, like claimRuns.
 */
export async function settleAndClaim(
  db: PgDb,
  settlements: Settlement[],
  req: ClaimRequest,
): Promise<{ settled: (Transition | null)[]; claim: ClaimResult }> {
  const valid = sendable(settlements);
  if (valid.length === 0) return { settled: settlements.map(() => null), claim: await claimRuns(db, req) };
  if (req.limit <= 0) return { settled: await settleRuns(db, settlements, req.now), claim: noClaim() };
  const rows = await db.hotQuery<PageRow & { settled_ids: string | null }>(
    db.named('settle.claim', settleAndClaimSql, [
      ...settleParams(req.now, valid),
      ...pageValues(req, req.limit, []),
    ]),
  );
  const ids = rows.find((r) => r.settled_ids !== null)?.settled_ids ?? '';
  const { settled, wakeAt } = settledTransitions(settlements, ids === '' ? [] : ids.split(','), req.now);
  if (wakeAt !== null) await db.notifyWake(db.pool, wakeAt);
  const claim = await afterFirstPage(
    db,
    req,
    rows.filter((r) => r.settled_ids === null),
  );
  return { settled, claim };
}

/**
 * Hands out the runs the first page leased; candidates left for a decision, or a claim to be shared among
 * tenants, go to a transaction.
 */
async function afterFirstPage(db: PgDb, req: ClaimRequest, rows: PageRow[]): Promise<ClaimResult> {
  const fair = rows.some((r) => r.fair);
  const page = rows.filter((r) => !r.fair).sort(claimOrder);
  const schedules = new Map<Id, Schedule | null>();
  await resolveSchedules(db, db.pool, page, schedules);
  const claimed: ClaimedRun[] = [];
  const transitions: Transition[] = [];
  const orphans: PageRow[] = [];
  for (const row of page) {
    if (!row.leased) continue;
    const schedule = schedules.get(String(row.schedule_id)) ?? null;
    if (schedule === null) {
      orphans.push(row);
      continue;
    }
    const run = toRun(row);
    claimed.push({ run, schedule, token: row.lease_token! });
    transitions.push({ run, from: 'scheduled', to: 'running' });
  }
  transitions.push(...(await cancelOrphans(db, db.pool, orphans, req.now)));
  const leased = claimed.length + orphans.length;
  if (!fair && (leased === req.limit || page.every((r) => r.leased))) return { claimed, transitions };
  // Candidates that need a decision were unlocked at the commit: the decision reads them again, locked.
  const rest = await db.tx((c) => claimIn(db, c, { ...req, limit: req.limit - claimed.length }));
  return {
    claimed: [...claimed, ...rest.claimed],
    transitions: [...transitions, ...rest.transitions],
  };
}

/** The claim inside the caller's transaction, deciding every candidate that needs it. */
export function claimIn(db: PgDb, c: PgQueryable, req: ClaimRequest): Promise<ClaimResult> {
  if (req.limit <= 0) return Promise.resolve(noClaim());
  return new Claim(db, c, req).run(db.nextClaimTurn());
}

/** Claim order: priority (highest first), then due time, then insertion. */
function claimOrder(a: RunRow, b: RunRow): number {
  return b.priority - a.priority || Number(a.due_at) - Number(b.due_at) || Number(a.id) - Number(b.id);
}

/** One step of the claim, in decision order; applied in batches, reported in this order. */
type Step =
  | { kind: 'leased'; row: PageRow }
  | { kind: 'finish'; id: Id; state: 'expired' | 'skipped' | 'cancelled'; reason: string }
  | { kind: 'cancelRunning'; scheduleId: Id }
  | { kind: 'claim'; id: Id; schedule: Schedule }
  | { kind: 'skipOtherDue'; scheduleId: Id };

/** A claim that decides: pages of candidates, locked in this transaction, each decided by decideClaim(). */
class Claim {
  readonly #claimed: ClaimedRun[] = [];
  readonly #transitions: Transition[] = [];
  /** Schedules of the runs seen, by id (null: the schedule was deleted). */
  readonly #schedules = new Map<Id, Schedule | null>();
  /** Non-`allow` schedules whose claim lock this transaction tried to take. */
  readonly #tried = new Set<Id>();
  /** Non-`allow` schedules this transaction holds the claim lock of. */
  readonly #locked = new Set<Id>();
  /** Locked schedules that had a running run when the lock was won. */
  readonly #running = new Set<Id>();
  readonly #claimedIn = new Set<Id>();
  /** bufferOne schedules claimed in this batch: their other due runs are skipped, not decided. */
  readonly #buffered = new Set<Id>();
  /** Candidates examined and left scheduled (waiting, or decided by another instance). */
  readonly #left: Id[] = [];
  #budget: number;
  #claims = 0;

  constructor(
    private readonly db: PgDb,
    private readonly c: PgQueryable,
    private readonly req: ClaimRequest,
  ) {
    this.#budget = req.limit * EXAMINE_FACTOR;
  }

  /**
   * Fair across tenants (as the SQLite store): the shares among tenants with runs due are planned in
   * store/common/claim-shares.ts (a rotating first tenant, `turn`); this executes them in order.
   */
  async run(turn: number): Promise<ClaimResult> {
    const { rows } = await this.c.query<{ tenant_id: string }>(dueTenantsSql(this.db.s), [this.req.now]);
    const tenants = rows.map((r) => r.tenant_id);
    for (const share of claimShares(tenants, turn, this.req.limit)) {
      await this.#pages(shareUntil(share, this.#claims, this.req.limit), share.tenant);
    }
    return { claimed: this.#claimed, transitions: this.#transitions };
  }

  /** Pages of candidates (of one tenant, or of all), until `until` runs are claimed or none is left. */
  async #pages(until: number, tenant: string | null): Promise<void> {
    while (this.#claims < until && this.#budget > 0) {
      // Lock no more rows than can still be claimed: other instances skip locked rows, so extra ones would only
      // hide work from them. Rows that end up expired, skipped or waiting are made up by the next page.
      const limit = Math.min(this.#budget, until - this.#claims);
      const values = [this.req.now, ...pageValues(this.req, limit, this.#left)];
      const { rows } = await this.c.query<PageRow>(
        tenant === null
          ? this.db.named('claim.page.any', claimNextPageSql, values)
          : this.db.named('claim.page.tenant', claimTenantPageSql, [...values, tenant]),
      );
      const page = rows.sort(claimOrder);
      await resolveSchedules(this.db, this.c, page, this.#schedules);
      await this.#lockGuarded(page);
      const steps: Step[] = [];
      const orphans: PageRow[] = [];
      for (const row of page) {
        this.#budget--;
        if (row.leased && this.#schedules.get(String(row.schedule_id)) == null) {
          orphans.push(row);
        } else if (row.leased) {
          steps.push({ kind: 'leased', row });
          this.#claims++;
          this.#claimedIn.add(String(row.schedule_id));
        } else {
          this.#decide(row, steps);
        }
      }
      const changed = await this.#apply(steps);
      for (const t of await cancelOrphans(this.db, this.c, orphans, this.req.now)) {
        changed.add(t.run.id);
        this.#transitions.push(t);
      }
      for (const row of page) if (!changed.has(String(row.id))) this.#left.push(String(row.id));
      if (page.length < limit) return;
    }
  }

  /** Locks the non-`allow` schedules of the candidates left for a decision; reads which have a running run. */
  async #lockGuarded(page: PageRow[]): Promise<void> {
    const guarded = [
      ...new Set(page.filter((r) => !r.leased && r.overlap !== 'allow').map((r) => String(r.schedule_id))),
    ].filter((id) => !this.#tried.has(id) && (this.#schedules.get(id) ?? null) !== null);
    if (guarded.length === 0) return;
    for (const id of guarded) this.#tried.add(id);
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
    if (claimSkipsOtherDue(row.overlap)) {
      this.#buffered.add(sid);
      steps.push({ kind: 'skipOtherDue', scheduleId: sid });
    }
  }

  /**
   * Applies a page's steps in a few statements, then reports their transitions in decision order. Returns the
   * ids of the candidates that changed (leased, claimed or finished).
   */
  async #apply(steps: Step[]): Promise<Set<Id>> {
    const { s } = this.db;
    const now = this.req.now;
    const finishes = steps.filter((x) => x.kind === 'finish');
    const finished = await this.#rows(finishes.length > 0, applySql.finish(s), [
      finishes.map((f) => f.id),
      finishes.map((f) => f.state),
      finishes.map((f) => f.reason),
      now,
    ]);
    const cancelled = await this.#rows(
      steps.some((x) => x.kind === 'cancelRunning'),
      applySql.cancelRunning(s),
      [steps.flatMap((x) => (x.kind === 'cancelRunning' ? [x.scheduleId] : [])), now],
    );
    const claims = steps.filter((x) => x.kind === 'claim');
    const leased = await this.#rows(claims.length > 0, applySql.lease(s), [
      claims.map((x) => x.id),
      this.req.workerId,
      now,
      this.req.leaseMs,
    ]);
    const bufferSkipped = await this.#rows(
      steps.some((x) => x.kind === 'skipOtherDue'),
      applySql.skipOtherDue(s),
      [steps.flatMap((x) => (x.kind === 'skipOtherDue' ? [x.scheduleId] : [])), now],
    );

    const changed = new Set<Id>();
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
    const claim = (row: RunRow, schedule: Schedule): void => {
      const run = toRun(row);
      changed.add(run.id);
      this.#claimed.push({ run, schedule, token: row.lease_token! });
      this.#transitions.push({ run, from: 'scheduled', to: 'running' });
    };
    for (const step of steps) {
      if (step.kind === 'leased') {
        claim(step.row, this.#schedules.get(String(step.row.schedule_id))!);
      } else if (step.kind === 'finish') {
        const row = finishedById.get(step.id);
        if (!row) continue;
        changed.add(step.id);
        this.#transitions.push({ run: toRun(row), from: 'scheduled', to: step.state });
      } else if (step.kind === 'cancelRunning') {
        for (const row of cancelledBySchedule.get(step.scheduleId) ?? []) {
          this.#transitions.push({ run: toRun(row), from: 'running', to: 'cancelled' });
        }
        cancelledBySchedule.delete(step.scheduleId);
      } else if (step.kind === 'claim') {
        const row = leasedById.get(step.id);
        if (row) claim(row, step.schedule);
      } else {
        for (const row of skippedBySchedule.get(step.scheduleId) ?? []) {
          changed.add(String(row.id));
          this.#transitions.push({ run: toRun(row), from: 'scheduled', to: 'skipped' });
        }
        skippedBySchedule.delete(step.scheduleId);
      }
    }
    return changed;
  }

  async #rows(run: boolean, text: string, values: unknown[]): Promise<RunRow[]> {
    if (!run) return [];
    return (await this.c.query<RunRow>(text, values)).rows;
  }
}
