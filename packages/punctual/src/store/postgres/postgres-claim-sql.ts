// The SQL of the PostgreSQL run claim, apart from the code that applies it (postgres-claim.ts) so that the
// EXPLAIN script (bench/pg-explain.ts) shows the very statements the store runs. Text builders only: each
// takes the quoted schema and never sees a value (every value is a bound parameter).

import { settleCtes } from './postgres-leases.js';
import { columns, RUN_COLUMNS } from './postgres-rows.js';

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
 * One level's candidates (priority $1, due by $2, due from $3, leaving out the ids $4, waiting overlaps $5,
 * limit $6), locked FOR UPDATE SKIP LOCKED: the per-level search the page statement below is built from, kept
 * for the EXPLAIN script.
 */
export function claimCandidatesSql(s: string): string {
  return `
    SELECT * FROM ${s}.runs AS r
     WHERE r.state = 'scheduled' AND r.priority = $1 AND r.due_at <= $2
       AND r.due_at >= $3::bigint AND r.id <> ALL($4::bigint[])
       AND NOT (r.overlap = ANY($5::text[])
                AND EXISTS (SELECT 1 FROM ${s}.runs AS x
                             WHERE x.schedule_id = r.schedule_id AND x.state = 'running'
                             OFFSET 0))
     ORDER BY r.due_at
     LIMIT $6
     FOR UPDATE OF r SKIP LOCKED`;
}

/** Where the claim's parameters are in a statement (the settle-and-claim statement puts them after its own). */
export interface ClaimParams {
  now: string;
  limit: string;
  waiting: string;
  worker: string;
  leaseMs: string;
  left: string;
  /** Runs of overlap `allow` due by this instant are claimed too (claimAheadMs); the others by `now`. */
  dueBy: string;
  /** Only this tenant's runs (a fair claim's share); absent: every tenant's. */
  tenant?: string;
}

/**
 * The page statement's parameters: $1 now, then the page size, waiting overlaps, worker, lease, left ids,
 * due-by instant.
 */
export const PAGE_PARAMS: ClaimParams = {
  now: '$1',
  limit: '$2',
  waiting: '$3',
  worker: '$4',
  leaseMs: '$5',
  left: '$6',
  dueBy: '$7',
};

/** The same, with $8 the tenant. */
const TENANT_PAGE_PARAMS: ClaimParams = { ...PAGE_PARAMS, tenant: '$8' };

/** Most tenants with scheduled runs the claim looks at to share a claim fairly (as in the SQLite store). */
export const MAX_FAIR_TENANTS = 256;

/**
 * The tenants with scheduled runs, in id order, at most MAX_FAIR_TENANTS: a skip-scan of runs_claim_tenant
 * (one probe per tenant). `level` must be defined.
 */
function tenantCte(s: string): string {
  return `
    tenant(t, n) AS (
      SELECT min(tenant_id), 1 FROM ${s}.runs WHERE state = 'scheduled'
      UNION ALL
      SELECT (SELECT min(tenant_id) FROM ${s}.runs WHERE state = 'scheduled' AND tenant_id > tenant.t),
             tenant.n + 1
        FROM tenant WHERE tenant.t IS NOT NULL AND tenant.n < ${MAX_FAIR_TENANTS}
    )`;
}

/**
 * Whether tenant `tenant.t` has a run due by `now` at some priority level: one probe of runs_claim_tenant per
 * level. OFFSET 0 keeps it a probe: without it the planner may hash the EXISTS, reading every due run.
 */
function tenantDue(s: string, now: string): string {
  return `EXISTS (SELECT 1 FROM level
                   WHERE level.p IS NOT NULL
                     AND EXISTS (SELECT 1 FROM ${s}.runs AS d
                                  WHERE d.state = 'scheduled' AND d.tenant_id = tenant.t
                                    AND d.priority = level.p AND d.due_at <= ${now}
                                  OFFSET 0))`;
}

/**
 * The tenants with a run due (tenants looked at: MAX_FAIR_TENANTS at most), in id order. Parameter: $1 now.
 * A claim shares itself among them when there are several.
 */
export function dueTenantsSql(s: string): string {
  return `
    WITH RECURSIVE ${levelCte(s, undefined)}, ${tenantCte(s)}
    SELECT tenant.t AS tenant_id FROM tenant WHERE tenant.t IS NOT NULL AND ${tenantDue(s, '$1')}`;
}

/** The distinct priorities of scheduled runs (of one tenant when `tenant` is given), highest first. */
function levelCte(s: string, tenant: string | undefined): string {
  const own = tenant === undefined ? '' : ` AND tenant_id = ${tenant}`;
  return `
    level(p) AS (
      SELECT max(priority) FROM ${s}.runs WHERE state = 'scheduled'${own}
      UNION ALL
      SELECT (SELECT max(priority) FROM ${s}.runs WHERE state = 'scheduled'${own} AND priority < level.p)
        FROM level WHERE level.p IS NOT NULL
    )`;
}

/** A candidate the claim can lease without a per-schedule decision (the fast path); `c` is the candidate. */
function fast(p: ClaimParams): string {
  return `c.overlap = 'allow' AND c.schedule_version_now IS NOT NULL
          AND (c.expires_at IS NULL OR c.expires_at >= ${p.now})`;
}

/**
 * The claim's common table expressions (for a WITH RECURSIVE list); `page` is their result and `fair` says
 * whether the claim must be shared among tenants instead.
 *
 * `level` lists the priorities highest first (one runs_claim probe each); for each level, `c` takes the due
 * range of runs_claim in due_at order (the runs of one instant in any order: migration 27 dropped the id
 * from the index so that they share one deduplicated key) with FOR UPDATE SKIP LOCKED (due by `dueBy` for overlap `allow`,
 * whose lease decides nothing and can be taken early; by `now` for the others), and the outer LIMIT stops the walk
 * (lazily: a lower level is probed only while the page is not full, and no more rows are locked than the
 * page holds). Waiting runs (overlap in `waiting`) of a schedule that has a running run are left out;
 * OFFSET 0 keeps that EXISTS a per-row probe of runs_schedule_pending (see docs/postgres.md), and "running"
 * is spelled so that the partial index runs_lease cannot serve it: a generic plan made while few runs are
 * running could otherwise walk all of them for each candidate. Each candidate carries its schedule's
 * current version (a primary-key probe; NULL: the schedule was deleted).
 *
 * `fair` (with `fairCheck`): whether two tenants or more have runs due. Then `c` is empty, nothing is locked,
 * and the claim is made in shares per tenant instead (postgres-claim.ts). The skip-scan over tenants stops
 * at the second tenant found due. With `tenant`, the page holds that tenant's runs only (runs_claim_tenant).
 *
 * `leased` leases at once the candidates that need no decision: overlap `allow`, deadline not passed,
 * schedule present. The others come back unchanged (leased = false) for the decision in postgres-claim.ts.
 * Rows this transaction changed earlier are invisible to the index scan, and `left` leaves out the ones it
 * looked at and left, so a next page continues where this one stopped without a keyset (a keyset across
 * levels would stop being an index range).
 */
export function claimCtes(s: string, p: ClaimParams, fairCheck: boolean): string {
  const own = p.tenant === undefined ? '' : `AND r.tenant_id = ${p.tenant}`;
  const fair = fairCheck
    ? `${tenantCte(s)}, fair(shared) AS (
         SELECT count(*) >= 2 FROM (SELECT 1 FROM tenant
                                     WHERE tenant.t IS NOT NULL AND ${tenantDue(s, p.now)}
                                     LIMIT 2) AS due
       )`
    : `fair(shared) AS (SELECT false)`;
  return `
    ${levelCte(s, p.tenant)}, ${fair}, c AS (
      SELECT r.*, (SELECT sc.version FROM ${s}.schedules AS sc WHERE sc.id = r.schedule_id)
                    AS schedule_version_now
        FROM level CROSS JOIN LATERAL (
               SELECT ${columns(RUN_COLUMNS, 'r')} FROM ${s}.runs AS r
                WHERE r.state = 'scheduled' ${own} AND r.priority = level.p AND r.due_at <= ${p.dueBy}
                  AND (r.due_at <= ${p.now} OR r.overlap = 'allow')
                  AND r.id <> ALL(${p.left}::bigint[])
                  AND NOT (r.overlap = ANY(${p.waiting}::text[])
                           AND EXISTS (SELECT 1 FROM ${s}.runs AS x
                                        WHERE x.schedule_id = r.schedule_id
                                          AND x.state IN ('scheduled', 'running') AND x.state <> 'scheduled'
                                        OFFSET 0))
                ORDER BY r.due_at
                LIMIT ${p.limit}
                FOR UPDATE OF r SKIP LOCKED) AS r
       WHERE level.p IS NOT NULL AND NOT (SELECT shared FROM fair)
       LIMIT ${p.limit}
    ), leased AS (
      UPDATE ${s}.runs AS r
         SET state = 'running', attempt = r.attempt + 1, lease_owner = ${p.worker},
             lease_token = gen_random_uuid()::text, lease_expires_at = ${p.now}::bigint + ${p.leaseMs}::bigint,
             attempt_started_at = ${p.now}, started_at = COALESCE(r.started_at, ${p.now})
        FROM c
       WHERE r.id = c.id AND ${fast(p)}
      RETURNING ${columns(RUN_COLUMNS, 'r')}, c.schedule_version_now
    ), page AS (
      SELECT leased.*, true AS leased FROM leased
      UNION ALL
      SELECT c.*, false AS leased FROM c WHERE NOT (${fast(p)})
    )`;
}

/**
 * The output of `page`: each candidate with its schedule's current version (the client takes the schedule
 * from its cache, or reads the ones it lacks: postgres-claim.ts). When `fair` holds, one more row, all NULL
 * but `fair`, says that the claim must be shared among tenants.
 */
export function pageOutput(): string {
  return `
    SELECT pg.*, false AS fair FROM page AS pg
    UNION ALL
    SELECT pg.*, true FROM (SELECT 1) AS one LEFT JOIN page AS pg ON false WHERE (SELECT shared FROM fair)`;
}

/** The schedules ($1 ids) a claim's client lacks in its cache, as they are now. */
export function schedulesByIdSql(s: string): string {
  return `SELECT * FROM ${s}.schedules WHERE id = ANY($1::bigint[])`;
}

/**
 * The first page of a claim, in one statement (parameters: PAGE_PARAMS); only the `fair` row when the claim
 * must be shared among tenants.
 */
export function claimPageSql(s: string): string {
  return `WITH RECURSIVE ${claimCtes(s, PAGE_PARAMS, true)} ${pageOutput()}`;
}

/** A next page of a claim, every tenant's runs (parameters: PAGE_PARAMS). */
export function claimNextPageSql(s: string): string {
  return `WITH RECURSIVE ${claimCtes(s, PAGE_PARAMS, false)} ${pageOutput()}`;
}

/** A page of one tenant's runs, for its share of a fair claim (parameters: PAGE_PARAMS, then $8 the tenant). */
export function claimTenantPageSql(s: string): string {
  return `WITH RECURSIVE ${claimCtes(s, TENANT_PAGE_PARAMS, false)} ${pageOutput()}`;
}

/** Where settleAndClaimSql has the claim's parameters: after the settlement's 30 ($1 now is shared). */
const AFTER_SETTLE: ClaimParams = {
  now: '$1',
  limit: '$31',
  waiting: '$32',
  worker: '$33',
  leaseMs: '$34',
  left: '$35',
  dueBy: '$36',
};

/**
 * Settles a batch and claims the first page in one statement: one round trip and one commit. Both parts run
 * in one snapshot: a run the settlement schedules again is claimed by a later statement, not this one. The
 * claimed rows have `settled_ids` NULL; one more row, all NULL but `settled_ids`, lists the ids of the runs
 * settled (comma-separated, '' for none; the caller knows the rest of each run: settledRun). That row reads
 * `executed` (one row, always): a CTE without a write runs only when read, and it counts the runs executed.
 */
export function settleAndClaimSql(s: string): string {
  return `
    WITH RECURSIVE ${settleCtes(s)}, ${claimCtes(s, AFTER_SETTLE, true)}, claimed AS (${pageOutput()})
    SELECT claimed.*, NULL::text AS settled_ids FROM claimed
    UNION ALL
    SELECT c.*, (SELECT coalesce(string_agg(id::text, ','), '') FROM settled)
      FROM executed LEFT JOIN claimed AS c ON false`;
}

/** The statements that apply a transaction's decisions (postgres-claim.ts), in the order they run. */
export const applySql = {
  /** Ends scheduled runs ($1 ids) without running them: states $2, reasons $3, at $4. */
  finish: (s: string) => `
    UPDATE ${s}.runs AS r SET state = f.state, reason = f.reason, finished_at = $4
      FROM unnest($1::bigint[], $2::text[], $3::text[]) AS f(id, state, reason)
     WHERE r.id = f.id AND r.state = 'scheduled'
    RETURNING ${columns(RUN_COLUMNS, 'r')}`,
  /** cancelPrevious: the schedules' ($1) running runs lose their lease, so their settlements are refused. */
  cancelRunning: (s: string) => `
    UPDATE ${s}.runs AS r SET state = 'cancelled', reason = 'overlap', finished_at = $2,
           lease_owner = NULL, lease_token = NULL, lease_expires_at = NULL
     WHERE r.schedule_id = ANY($1::bigint[]) AND r.state = 'running'
    RETURNING ${columns(RUN_COLUMNS, 'r')}`,
  /** Leases the decided runs ($1) to worker $2 at $3 for $4 ms. */
  lease: (s: string) => `
    UPDATE ${s}.runs AS r
       SET state = 'running', attempt = r.attempt + 1, lease_owner = $2,
           lease_token = gen_random_uuid()::text, lease_expires_at = $3::bigint + $4::bigint,
           attempt_started_at = $3, started_at = COALESCE(r.started_at, $3)
     WHERE r.id = ANY($1::bigint[]) AND r.state = 'scheduled'
    RETURNING ${columns(RUN_COLUMNS, 'r')}`,
  /**
   * Runs this claim leased ($1 ids, $3 their tokens) whose schedule was deleted before the claim read it:
   * cancelled at $2 (nothing to run them with), as the deletion would have done a moment earlier.
   */
  orphans: (s: string) => `
    UPDATE ${s}.runs AS r SET state = 'cancelled', reason = 'deleted', finished_at = $2,
           lease_owner = NULL, lease_token = NULL, lease_expires_at = NULL
      FROM unnest($1::bigint[], $3::text[]) AS u(id, token)
     WHERE r.id = u.id AND r.lease_token = u.token
    RETURNING ${columns(RUN_COLUMNS, 'r')}`,
  /**
   * bufferOne keeps one buffered run, the one just claimed: the schedules' ($1) other runs due by $2 are
   * skipped. Rows another claim holds are left to it (SKIP LOCKED); a later claim of the schedule skips them.
   */
  skipOtherDue: (s: string) => `
    UPDATE ${s}.runs AS r SET state = 'skipped', reason = 'overlap', finished_at = $2
     WHERE r.id IN (SELECT id FROM ${s}.runs
                     WHERE schedule_id = ANY($1::bigint[]) AND state = 'scheduled' AND due_at <= $2
                     FOR UPDATE SKIP LOCKED)
    RETURNING ${columns(RUN_COLUMNS, 'r')}`,
};
