// The run claim of the SQLite store: in one BEGIN IMMEDIATE transaction, pick due runs by priority then due
// time, apply deadlines and overlap policies (domain/claim-decision.ts decides, this file applies), and lease
// the winners. It must stay an index search with millions of future runs, and must never read a clock.
//
// Fair across tenants: when more than one tenant has runs due, each gets an equal share of the batch (the
// first tenant served rotates between claims), so one tenant's backlog never holds back another's runs due
// at the same moment; what a tenant leaves unused goes to the others.
//
// Why per priority level: ORDER BY priority DESC, due_at over `due_at <= now` cannot seek in the
// (priority DESC, due_at) index, so one query would walk every pending run. Instead we list the distinct
// priorities (one index probe each) and search each level's due range in order.

import { randomUUID } from 'node:crypto';
import { claimSkipsOtherDue, decideClaim, WAITING_OVERLAPS } from '../../domain/claim-decision.js';
import { claimShares, shareUntil } from '../common/claim-shares.js';
import { claimDueBy } from '../common/claim-window.js';
import type { Schedule } from '../../domain/schedule.js';
import type { ClaimedRun, ClaimRequest, ClaimResult, Settlement, Transition } from '../store.js';
import type { SqliteDatabase } from './sqlite-database.js';
import { toRun, toSchedule, type RunRow, type ScheduleReadRow } from './sqlite-rows.js';
import { EXECUTIONS_JOIN, WITH_EXECUTIONS } from './sqlite-executions.js';
import { changed } from './sqlite-runs.js';
import { settleIn } from './sqlite-leases.js';

/** Distinct priorities of scheduled runs, highest first: one probe of runs_claim per level. */
export const PRIORITY_LEVELS = `
  WITH RECURSIVE level(p) AS (
    SELECT MAX(priority) FROM runs WHERE state = 'scheduled'
    UNION ALL
    SELECT (SELECT MAX(priority) FROM runs WHERE state = 'scheduled' AND priority < level.p)
    FROM level WHERE level.p IS NOT NULL)
  SELECT p FROM level WHERE p IS NOT NULL`;

// Searches runs_claim (priority = ?, due_at range: by @dueBy for overlap `allow`, whose lease decides nothing
// and may be taken early, by @now for the others; store/common/claim-window.ts). The waiting-overlap names are
// constants of the domain. Waiting runs (buffer*) of a schedule that has a running run are left out so they
// never fill a page; keyset (due_at, id) continues a level across pages.
export const CLAIM_CANDIDATES = `
  SELECT * FROM runs AS r
  WHERE r.state = 'scheduled' AND r.priority = @priority AND r.due_at <= @dueBy
    AND (r.due_at <= @now OR r.overlap = 'allow')
    AND (r.due_at, r.id) > (@afterDue, @afterId)
    AND NOT (r.overlap IN (${WAITING_OVERLAPS.map((o) => `'${o}'`).join(', ')})
      AND EXISTS (SELECT 1 FROM runs AS x WHERE x.schedule_id = r.schedule_id AND x.state = 'running'))
  ORDER BY r.due_at, r.id
  LIMIT @limit`;

// The same search within one tenant (runs_claim_tenant).
export const CLAIM_TENANT_CANDIDATES = `
  SELECT * FROM runs AS r
  WHERE r.state = 'scheduled' AND r.tenant_id = @tenant AND r.priority = @priority AND r.due_at <= @dueBy
    AND (r.due_at <= @now OR r.overlap = 'allow')
    AND (r.due_at, r.id) > (@afterDue, @afterId)
    AND NOT (r.overlap IN (${WAITING_OVERLAPS.map((o) => `'${o}'`).join(', ')})
      AND EXISTS (SELECT 1 FROM runs AS x WHERE x.schedule_id = r.schedule_id AND x.state = 'running'))
  ORDER BY r.due_at, r.id
  LIMIT @limit`;

// Skip-scan of runs_claim_tenant: the next tenant with scheduled runs after @after.
const NEXT_TENANT = `
  SELECT tenant_id FROM runs WHERE state = 'scheduled' AND tenant_id > ? ORDER BY tenant_id LIMIT 1`;

// Whether a tenant has a run due at a priority level (one probe of runs_claim_tenant).
const TENANT_DUE = `
  SELECT 1 FROM runs WHERE state = 'scheduled' AND tenant_id = ? AND priority = ? AND due_at <= ? LIMIT 1`;

/** Most tenants looked at for one claim; beyond it the claim falls back to plain priority-then-due order. */
const MAX_FAIR_TENANTS = 256;

const SCHEDULES_BY_ID = `
  SELECT ${WITH_EXECUTIONS} FROM schedules ${EXECUTIONS_JOIN}
  WHERE schedules.id IN (SELECT value FROM json_each(?))`;

const RUNNING_SCHEDULES = `
  SELECT DISTINCT schedule_id AS id FROM runs
  WHERE state = 'running' AND schedule_id IN (SELECT value FROM json_each(?))`;

const CLAIM = `
  UPDATE runs SET state = 'running', attempt = attempt + 1, lease_owner = @owner, lease_token = @token,
    lease_expires_at = @until, attempt_started_at = @now, started_at = COALESCE(started_at, @now)
  WHERE id = @id AND state = 'scheduled'
  RETURNING *`;

// Ends a scheduled run without running it (expired by deadline, skipped by overlap, cancelled: deleted).
const FINISH_SCHEDULED = `
  UPDATE runs SET state = @state, reason = @reason, finished_at = @now
  WHERE id = @id AND state = 'scheduled'
  RETURNING *`;

// cancelPrevious: the running runs lose their lease, so their workers' settlements are refused.
const CANCEL_RUNNING = `
  UPDATE runs SET state = 'cancelled', reason = 'overlap', finished_at = @now, lease_owner = NULL,
    lease_token = NULL, lease_expires_at = NULL
  WHERE schedule_id = @scheduleId AND state = 'running'
  RETURNING *`;

// bufferOne keeps one buffered run: the one just claimed; the schedule's other due runs are skipped.
const SKIP_OTHER_DUE = `
  UPDATE runs SET state = 'skipped', reason = 'overlap', finished_at = @now
  WHERE schedule_id = @scheduleId AND state = 'scheduled' AND due_at <= @now AND id <> @id
  RETURNING *`;

/** Candidates examined per claim, as a multiple of the limit (expired, skipped and waiting runs use some). */
const EXAMINE_FACTOR = 4;

/** Rotates which tenant is served first, per database, so equal shares do not always favour the same one. */
const rotation = new WeakMap<SqliteDatabase, number>();

/**
 * Settles, then claims, in one commit. Both run straight in the one transaction, without a savepoint each:
 * either throwing rolls the whole transaction back anyway, and a savepoint copies every page it changes
 * into SQLite's sub-journal (bench/results/2026-11-26-sqlite-million-2.md).
 */
export function settleAndClaim(
  sql: SqliteDatabase,
  settlements: Settlement[],
  claim: ClaimRequest,
): { settled: (Transition | null)[]; claim: ClaimResult } {
  return sql.write(() => ({
    settled: settleIn(sql, settlements, claim.now),
    claim: claimIn(sql, claim),
  }));
}

export function claimRuns(sql: SqliteDatabase, req: ClaimRequest): ClaimResult {
  if (req.limit <= 0) return { claimed: [], transitions: [] };
  return sql.write(() => claimIn(sql, req));
}

/** A claim inside the caller's transaction. */
function claimIn(sql: SqliteDatabase, req: ClaimRequest): ClaimResult {
  if (req.limit <= 0) return { claimed: [], transitions: [] };
  const turn = rotation.get(sql) ?? 0;
  rotation.set(sql, turn + 1);
  return new Claim(sql, req).run(turn);
}

class Claim {
  private readonly claimed: ClaimedRun[] = [];
  private readonly transitions: Transition[] = [];
  /** Schedules of the runs seen, by id (null: the schedule was deleted). */
  private readonly schedules = new Map<number, Schedule | null>();
  /** Schedules that had a running run when they were first seen. */
  private readonly running = new Set<number>();
  private readonly claimedIn = new Set<number>();
  /** Runs this batch already moved (a page may hold rows a bufferOne skip just ended). */
  private readonly done = new Set<number>();
  private budget: number;

  constructor(
    private readonly sql: SqliteDatabase,
    private readonly req: ClaimRequest,
  ) {
    this.budget = req.limit * EXAMINE_FACTOR;
  }

  run(turn: number): ClaimResult {
    const levels = this.sql.pluck(PRIORITY_LEVELS).all() as number[];
    const tenants = levels.length === 0 ? [] : this.dueTenants(levels);
    // Fair across tenants: the shares are planned in store/common/claim-shares.ts.
    for (const share of claimShares(tenants, turn, this.req.limit)) {
      const until = shareUntil(share, this.claimed.length, this.req.limit);
      for (const priority of levels) {
        if (this.full(until)) break;
        this.claimLevel(priority, share.tenant, until);
      }
    }
    return { claimed: this.claimed, transitions: this.transitions };
  }

  /** Tenants with a run due now (skip-scan), or none when there are too many to share fairly. */
  private dueTenants(levels: number[]): string[] {
    const due: string[] = [];
    let after = '';
    for (let seen = 0; seen < MAX_FAIR_TENANTS; seen++) {
      const tenant = this.sql.pluck(NEXT_TENANT).get(after) as string | undefined;
      if (tenant === undefined) return due;
      if (levels.some((p) => this.sql.stmt(TENANT_DUE).get(tenant, p, this.req.now) !== undefined))
        due.push(tenant);
      after = tenant;
    }
    return [];
  }

  private full(until = this.req.limit): boolean {
    return this.claimed.length >= until || this.budget <= 0;
  }

  private claimLevel(priority: number, tenant: string | null, until: number): void {
    let afterDue = Number.MIN_SAFE_INTEGER;
    let afterId = 0;
    while (!this.full(until)) {
      const limit = Math.min(this.budget, this.req.limit * 2);
      const params = { priority, now: this.req.now, dueBy: claimDueBy(this.req), afterDue, afterId, limit };
      const page = (
        tenant === null
          ? this.sql.stmt(CLAIM_CANDIDATES).all(params)
          : this.sql.stmt(CLAIM_TENANT_CANDIDATES).all({ ...params, tenant })
      ) as RunRow[];
      this.load(page);
      for (const row of page) {
        if (this.full(until)) return;
        this.budget--;
        if (!this.done.has(row.id)) this.decide(row);
      }
      const last = page[page.length - 1];
      if (last === undefined || page.length < limit) return;
      afterDue = last.due_at;
      afterId = last.id;
    }
  }

  /** Loads, once per batch, the schedules of a page and whether each has a running run. */
  private load(page: RunRow[]): void {
    const ids = [...new Set(page.map((r) => r.schedule_id))].filter((id) => !this.schedules.has(id));
    if (ids.length === 0) return;
    const list = JSON.stringify(ids);
    for (const id of ids) this.schedules.set(id, null);
    for (const row of this.sql.stmt(SCHEDULES_BY_ID).all(list) as ScheduleReadRow[]) {
      this.schedules.set(row.id, toSchedule(row));
    }
    for (const id of this.sql.pluck(RUNNING_SCHEDULES).all(list) as number[]) this.running.add(id);
  }

  private decide(row: RunRow): void {
    const schedule = this.schedules.get(row.schedule_id) ?? null;
    if (schedule === null) {
      // Its schedule was deleted after this run went back to scheduled (a retry): it has nothing to run.
      this.finish(row.id, 'cancelled', 'deleted');
      return;
    }
    const decision = decideClaim(
      { expiresAt: row.expires_at, overlap: row.overlap },
      {
        now: this.req.now,
        running: this.running.has(row.schedule_id),
        claimedInBatch: this.claimedIn.has(row.schedule_id),
      },
    );
    switch (decision) {
      case 'expire':
        this.finish(row.id, 'expired', 'deadline');
        return;
      case 'skip':
        this.finish(row.id, 'skipped', 'overlap');
        return;
      case 'wait':
        return;
      case 'cancelRunningThenClaim':
        this.record(
          this.sql.stmt(CANCEL_RUNNING).all({ scheduleId: row.schedule_id, now: this.req.now }),
          'running',
        );
        this.lease(row, schedule);
        return;
      case 'claim':
        this.lease(row, schedule);
        return;
    }
  }

  private lease(row: RunRow, schedule: Schedule): void {
    const token = randomUUID();
    const now = this.req.now;
    const updated = this.sql
      .stmt(CLAIM)
      .get({ id: row.id, owner: this.req.workerId, token, until: now + this.req.leaseMs, now }) as
      RunRow | undefined;
    if (updated === undefined) return;
    this.done.add(row.id);
    this.claimedIn.add(row.schedule_id);
    const run = toRun(updated);
    this.claimed.push({ run, schedule, token });
    this.transitions.push({ run, from: 'scheduled', to: 'running' });
    if (claimSkipsOtherDue(row.overlap)) {
      this.record(
        this.sql.stmt(SKIP_OTHER_DUE).all({ scheduleId: row.schedule_id, id: row.id, now }),
        'scheduled',
      );
    }
  }

  private finish(id: number, state: 'expired' | 'skipped' | 'cancelled', reason: string): void {
    const row = this.sql.stmt(FINISH_SCHEDULED).get({ id, state, reason, now: this.req.now });
    this.record(row === undefined ? [] : [row], 'scheduled');
  }

  private record(rows: unknown[], from: 'scheduled' | 'running'): void {
    for (const t of changed(rows as RunRow[], from)) {
      this.done.add(Number(t.run.id));
      this.transitions.push(t);
    }
  }
}
