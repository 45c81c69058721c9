// Puts over existing schedules in the PostgreSQL store, any number at once with a fixed number of statements:
// compare-and-set and "unchanged" per put, then for the changed ones the revisions' content written out, the
// schedule rows updated, their pending runs cancelled and their revisions recorded, each a single statement
// over arrays. A put of one schedule takes the same path. The caller holds the rows' locks (FOR UPDATE) in
// its transaction; it must never read a clock (`now` comes with each put).

import { sameDraft } from '../../domain/schedule.js';
import { targetKind } from '../../domain/target.js';
import { putRevision } from '../revision-record.js';
import { putRefusal } from '../common/put-rules.js';
import { sameAsStored, type PutScheduleRequest, type PutScheduleResult } from '../store.js';
import type { PgDb } from './postgres-database.js';
import type { PgQueryable } from './postgres-driver.js';
import { dropOverrides } from './postgres-overrides.js';
import { insertRevisions, keepRevisionsContent, writeOutCreations } from './postgres-revisions.js';
import {
  draftOf,
  jsonParam,
  scheduleColumns,
  toSchedule,
  type RunRow,
  type ScheduleRow,
} from './postgres-rows.js';
import { transitionsOf } from './postgres-runs.js';
import { storedDefaults } from '../common/stored-defaults.js';

/** The schedule columns a put writes, in the order of the UPDATE below (NULL for a default: migration 26). */
export function contentOf(d: PutScheduleRequest['draft']): unknown[] {
  const stored = storedDefaults(d);
  return [
    d.spec,
    d.specKind,
    stored.tz,
    JSON.stringify(d.target),
    targetKind(d.target),
    jsonParam(d.payload),
    jsonParam(stored.policies),
    stored.overlap,
    d.startAt,
    d.endAt,
    d.maxRuns,
    stored.jitter_ms,
    stored.description,
    d.summary,
    jsonParam(stored.labels),
    d.dst === null ? null : JSON.stringify(d.dst),
    d.calendarRules == null ? null : JSON.stringify(d.calendarRules),
  ];
}

/** The expect column of a put ($28 of an insert, $21 of an update: added after the others). */
export function expectParam(d: PutScheduleRequest['draft']): string | null {
  return d.expect == null ? null : JSON.stringify(d.expect);
}

// One row per changed schedule ($1 ids, $2-$18 the content as contentOf, $19 next_fire_at, $20 now, $21
// expect). A change
// reopens a completed schedule but leaves a paused one paused; fired_count and created_at stay. Here and
// below, `= ANY($1)` beside the join keeps the plan an index search (schedules_pkey, runs_schedule_pending):
// a join with the arrays alone may hash the whole table, once per batch.
const UPDATE = (s: string) => `
  UPDATE ${s}.schedules AS s
     SET spec = u.spec, spec_kind = u.spec_kind, tz = u.tz, target = u.target::jsonb, target_kind = u.target_kind,
         payload = u.payload::jsonb, policies = u.policies::jsonb, overlap = u.overlap, start_at = u.start_at,
         end_at = u.end_at, max_runs = u.max_runs, jitter_ms = u.jitter_ms, description = u.description,
         summary = u.summary, labels = u.labels::jsonb, dst = u.dst::jsonb,
         calendar_rules = u.calendar_rules::jsonb, expect = u.expect::jsonb, version = s.version + 1,
         next_fire_at = u.next_fire_at,
         state = CASE WHEN s.state = 'completed' THEN 'active' ELSE s.state END,
         claimed_until = NULL, updated_at = u.now
    FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                $8::text[], $9::text[], $10::bigint[], $11::bigint[], $12::int[], $13::bigint[], $14::text[],
                $15::text[], $16::text[], $17::text[], $18::text[], $19::bigint[], $20::bigint[], $21::text[])
      AS u(id, spec, spec_kind, tz, target, target_kind, payload, policies, overlap, start_at, end_at, max_runs,
           jitter_ms, description, summary, labels, dst, calendar_rules, next_fire_at, now, expect)
   WHERE s.id = u.id AND s.id = ANY($1::bigint[])
  RETURNING ${scheduleColumns(s, 's')}`;

// The pending runs of the changed schedules' previous versions (runs_schedule_pending).
const CANCEL = (s: string) => `
  UPDATE ${s}.runs AS r SET state = 'cancelled', reason = 'updated', finished_at = u.now, holds_occurrence = NULL
    FROM unnest($1::bigint[], $2::bigint[]) AS u(schedule_id, now)
   WHERE r.schedule_id = u.schedule_id AND r.schedule_id = ANY($1::bigint[]) AND r.state = 'scheduled'
  RETURNING r.*`;

/** A put and the schedule row it applies to, locked by the caller. */
export interface LockedPut {
  req: PutScheduleRequest;
  current: ScheduleRow;
}

/**
 * Applies puts to their locked schedules (one put per schedule), results in the order given: VERSION_CONFLICT
 * for the first that fails its check (nothing is written then), unchanged for a draft equal to the stored one,
 * else the change with its revision, its previous version's pending runs cancelled and the overrides it
 * drops deleted.
 */
export async function changeSchedules(
  db: PgDb,
  c: PgQueryable,
  puts: readonly LockedPut[],
): Promise<PutScheduleResult[]> {
  const out: PutScheduleResult[] = [];
  const changed: { at: number; req: PutScheduleRequest; was: ReturnType<typeof toSchedule> }[] = [];
  for (const [at, { req, current }] of puts.entries()) {
    const d = req.draft;
    const refusal = putRefusal(req, current.version);
    if (refusal !== undefined) throw refusal;
    const was = toSchedule(current);
    if (sameAsStored(req, was, () => sameDraft(draftOf(current), d))) {
      out[at] = { schedule: was, created: false, changed: false, transitions: [] };
    } else changed.push({ at, req, was });
  }
  if (changed.length === 0) return out;
  await writeOutCreations(db, c, { ids: changed.map((ch) => ch.was.id) });
  await keepRevisionsContent(
    db,
    c,
    changed.map((ch) => ch.was),
  );
  const content = changed.map((ch) => contentOf(ch.req.draft));
  const { rows } = await c.query<ScheduleRow>(UPDATE(db.s), [
    changed.map((ch) => ch.was.id),
    ...Array.from({ length: 17 }, (_, i) => content.map((v) => v[i])),
    changed.map((ch) => ch.req.nextFireAt),
    changed.map((ch) => ch.req.now),
    changed.map((ch) => expectParam(ch.req.draft)),
  ]);
  const updated = new Map(rows.map((r) => [String(r.id), toSchedule(r)]));
  const { rows: cancelled } = await c.query<RunRow>(CANCEL(db.s), [
    changed.map((ch) => ch.was.id),
    changed.map((ch) => ch.req.now),
  ]);
  const runsOf = new Map<string, RunRow[]>();
  for (const r of cancelled) {
    const id = String(r.schedule_id);
    const runs = runsOf.get(id);
    if (runs === undefined) runsOf.set(id, [r]);
    else runs.push(r);
  }
  for (const { req, was } of changed) {
    if (req.dropOverrides !== undefined) await dropOverrides(db, c, was.id, req.dropOverrides);
  }
  const revisions = changed.map(({ req, was }) =>
    putRevision(was, updated.get(was.id)!, req.revision, req.now),
  );
  await insertRevisions(db, c, revisions);
  for (const { at, was } of changed) {
    out[at] = {
      schedule: updated.get(was.id)!,
      created: false,
      changed: true,
      transitions: transitionsOf(runsOf.get(was.id) ?? [], 'scheduled'),
    };
  }
  return out;
}
