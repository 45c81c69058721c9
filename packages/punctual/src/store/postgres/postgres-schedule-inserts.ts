// New schedules in the PostgreSQL store: any number inserted by one statement, each with its `created`
// revision (kept in its row under a reserved number, or a row for a rollback's re-creation), from one JSON
// parameter (a row object per schedule, read by jsonb_to_recordset). The saved
// schedules are answered from what was written and the ids the statement returns, not read back. It must
// never interpolate a value into SQL and never read a clock (`now` comes with each put).

import type { PutScheduleRequest, PutScheduleResult } from '../store.js';
import { targetKind } from '../../domain/target.js';
import { RetryTransaction, type PgDb } from './postgres-database.js';
import type { PgQueryable } from './postgres-driver.js';
import { toSchedule, type ScheduleRow } from './postgres-rows.js';
import { asJsonb } from './jsonb-value.js';
import { storedDefaults } from '../common/stored-defaults.js';

/** The columns of a row object of the parameter, with their types (the schedules' own, and the revision's). */
const ROW_COLUMNS = `n int, tenant_id text, key text, spec text, spec_kind text, tz text, target jsonb,
  target_kind text, payload jsonb, policies jsonb, start_at bigint, end_at bigint, max_runs int,
  jitter_ms bigint, description text, summary text, labels jsonb, dst jsonb, calendar_rules jsonb,
  expect jsonb, state text, next_fire_at bigint, now bigint, actor text, change text, from_version int`;

/**
 * The insert ($1: a JSON array of row objects), ids in the order of `n`. A `created` revision stays in its
 * schedule's row (`created_seq`: a number of the revisions' sequence, `created_by`) until the schedule
 * changes (postgres-revisions.ts writes it out then); a `rolledBack` one is a row written by the statement. jsonb_to_recordset, not json_to_recordset: the statement for 2,000
 * schedules ran 49 ms with it, 116 ms with json (a hash table built per row object) and 64 ms with the 28
 * arrays of unnest this replaces (EXPLAIN ANALYZE, bench/results/2026-11-26-bulk-load-3.md). The revisions store neither diff nor content: both derive from the schedule
 * row while it is at version 1 (store/stored-revision.ts). A plain INSERT, not ON CONFLICT: a key that
 * exists fails the statement (unique_violation on schedules_tenant_key) and the caller takes its update
 * path; ON CONFLICT would cost every row a second probe of the key's index and a confirmation in the WAL.
 */
function insertSql(s: string): string {
  return `WITH u AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS u(${ROW_COLUMNS})),
     ins AS (INSERT INTO ${s}.schedules (tenant_id, key, spec, spec_kind, tz, target, target_kind, payload,
               policies, start_at, end_at, max_runs, jitter_ms, description, summary, labels, dst,
               calendar_rules, expect, state, paused_at, version, next_fire_at, fired_count, created_at,
               updated_at, created_seq, created_by)
             SELECT u.tenant_id, u.key, u.spec, u.spec_kind, u.tz, u.target, u.target_kind, u.payload,
                    u.policies, u.start_at, u.end_at, u.max_runs, u.jitter_ms, u.description,
                    u.summary, u.labels, u.dst, u.calendar_rules, u.expect, u.state,
                    CASE WHEN u.state = 'paused' THEN u.now END, 1, u.next_fire_at, 0, u.now, NULL,
                    CASE WHEN u.change = 'created'
                         THEN nextval(pg_get_serial_sequence('${s}.schedule_revisions', 'seq')) END,
                    CASE WHEN u.change = 'created' THEN u.actor END
               FROM u ORDER BY u.n
             RETURNING id, tenant_id, key, version, state, created_at),
     rev AS (INSERT INTO ${s}.schedule_revisions (tenant_id, key, schedule_id, version, at, actor, change,
               from_version, state, diff, content)
             SELECT ins.tenant_id, ins.key, ins.id, ins.version, ins.created_at, u.actor, u.change,
                    u.from_version, ins.state, NULL::jsonb, NULL::jsonb
               FROM ins JOIN u ON u.tenant_id = ins.tenant_id AND u.key = ins.key
              WHERE u.change = 'rolledBack')
     SELECT id, tenant_id, key FROM ins`;
}

/** The unique constraint a new key can hit when another put created it meanwhile. */
const TENANT_KEY = 'schedules_tenant_key';

/**
 * Inserts new schedules in one statement, results in the order given. A key another put created meanwhile
 * fails the statement: RetryTransaction then (inside `tx` the transaction starts over and takes the update
 * path for it). The requests' keys are distinct.
 */
export async function insertSchedules(
  db: PgDb,
  c: PgQueryable,
  reqs: readonly PutScheduleRequest[],
): Promise<PutScheduleResult[]> {
  if (reqs.length === 0) return [];
  const rows = reqs.map(rowOf);
  let ids: InsertedRow[];
  try {
    ({ rows: ids } = await c.query<InsertedRow>(
      db.named('schedules.insert', insertSql, [JSON.stringify(rows)]),
    ));
  } catch (e) {
    const err = e as { code?: string; constraint?: string };
    if (err.code === '23505' && err.constraint === TENANT_KEY) throw new RetryTransaction();
    throw e;
  }
  const idOf = new Map<string, Map<string, number | string>>();
  for (const r of ids) {
    let keys = idOf.get(r.tenant_id);
    if (keys === undefined) idOf.set(r.tenant_id, (keys = new Map()));
    keys.set(r.key, r.id);
  }
  return rows.map((r) => {
    const id = idOf.get(r.tenant_id)?.get(r.key);
    if (id === undefined) throw new Error(`schedule ${r.key} was not inserted`);
    return created(r, id);
  });
}

interface InsertedRow {
  id: number | string;
  tenant_id: string;
  key: string;
}

/** The schedule row a request writes (its parameter row), as the store's column names. */
interface InsertRow {
  n: number;
  tenant_id: string;
  key: string;
  spec: string;
  spec_kind: string;
  tz?: string | undefined;
  target: unknown;
  target_kind: string;
  payload?: unknown | undefined;
  policies?: unknown;
  start_at?: number | undefined;
  end_at?: number | undefined;
  max_runs?: number | undefined;
  jitter_ms?: number | undefined;
  summary?: string | undefined;
  labels?: unknown;
  dst?: unknown | undefined;
  calendar_rules?: unknown | undefined;
  expect?: unknown | undefined;
  state: 'active' | 'paused';
  next_fire_at?: number | undefined;
  now: number;
  actor?: string | undefined;
  change: 'created' | 'rolledBack';
  from_version?: number | undefined;
}

/**
 * A column that is NULL is left out (undefined: JSON.stringify drops it, and a missing member reads as NULL),
 * which keeps the parameter short. The JSON values are the ones jsonb gives back (asJsonb), so the saved
 * schedule built from this row equals
 * the row read back; text is sent well-formed (a lone surrogate becomes U+FFFD, as the driver's UTF-8
 * encoding of a text parameter does).
 */
function rowOf(r: PutScheduleRequest, n: number): InsertRow {
  const d = r.draft;
  const stored = storedDefaults(d);
  return {
    n,
    tenant_id: text(d.tenantId),
    key: text(d.key),
    spec: text(d.spec),
    spec_kind: d.specKind,
    tz: stored.tz === null ? undefined : text(stored.tz),
    target: asJsonb(d.target),
    target_kind: targetKind(d.target),
    payload: asJsonb(d.payload) ?? undefined,
    policies: asJsonb(stored.policies) ?? undefined,
    start_at: d.startAt ?? undefined,
    end_at: d.endAt ?? undefined,
    max_runs: d.maxRuns ?? undefined,
    jitter_ms: stored.jitter_ms ?? undefined,
    summary: d.summary == null ? undefined : text(d.summary),
    labels: asJsonb(stored.labels) ?? undefined,
    dst: d.dst == null ? undefined : asJsonb(d.dst),
    calendar_rules: d.calendarRules == null ? undefined : asJsonb(d.calendarRules),
    expect: d.expect == null ? undefined : asJsonb(d.expect),
    state: r.initialState ?? 'active',
    next_fire_at: r.nextFireAt ?? undefined,
    now: r.now,
    actor: r.revision?.actor == null ? undefined : text(r.revision.actor),
    change: r.revision?.fromVersion !== undefined ? 'rolledBack' : 'created',
    from_version: r.revision?.fromVersion ?? undefined,
  };
}

/** The result of a request whose row was inserted with this id: the schedule as the row reads back. */
function created(r: InsertRow, id: number | string): PutScheduleResult {
  const row: ScheduleRow = {
    id,
    tenant_id: r.tenant_id,
    key: r.key,
    spec: r.spec,
    spec_kind: r.spec_kind,
    tz: r.tz ?? null,
    target: r.target as ScheduleRow['target'],
    target_kind: r.target_kind,
    payload: (r.payload ?? null) as ScheduleRow['payload'],
    policies: r.policies ?? null,
    overlap: null,
    start_at: r.start_at ?? null,
    end_at: r.end_at ?? null,
    max_runs: r.max_runs ?? null,
    jitter_ms: r.jitter_ms ?? null,
    description: null,
    state: r.state,
    version: 1,
    next_fire_at: r.next_fire_at ?? null,
    fired_count: 0,
    summary: r.summary ?? null,
    labels: (r.labels ?? null) as ScheduleRow['labels'],
    dst: (r.dst ?? null) as ScheduleRow['dst'],
    calendar_rules: (r.calendar_rules ?? null) as ScheduleRow['calendar_rules'],
    expect: (r.expect ?? null) as ScheduleRow['expect'],
    executed_count: null,
    last_fired_at: null,
    last_succeeded_at: null,
    paused_at: r.state === 'paused' ? r.now : null,
    paused_until: null,
    note: null,
    claimed_until: null,
    created_at: r.now,
    updated_at: null,
  };
  return { schedule: toSchedule(row), created: true, changed: true, transitions: [] };
}

/** Text as the driver sends a text parameter: well-formed UTF-16 (a lone surrogate becomes U+FFFD). */
function text(s: string): string {
  const w = s as string & { isWellFormed(): boolean; toWellFormed(): string };
  return w.isWellFormed() ? s : w.toWellFormed();
}
