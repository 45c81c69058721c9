// Checks on SQLite: writing one (a heartbeat armed from its last beat, a deadline from its first window
// ahead), and judging one due deadline check inside the caller's BEGIN IMMEDIATE transaction
// (evaluateDueChecks took and disarmed it): looks for a run of its schedule that succeeded in the window
// (runs_tenant_key_time, one index range of finished runs), opens or resolves `deadline_missed`, and arms the next window. It
// must never read a clock, nor build a statement from input.

import type { Alert, Check } from '../../domain/alert.js';
import { parseCheckInput } from '../../domain/alert-input.js';
import { missedKindOf } from '../../domain/deadline-check.js';
import { toCheck, type CheckRow } from '../alert-rows.js';
import { firstWindow, judgedWindow, windowLookup } from '../deadline-rows.js';
import { FINISHED_RUNS } from '../common/run-list-parts.js';
import { CHECK, openOne, resolveOne } from './sqlite-alerts.js';
import type { SqliteDatabase } from './sqlite-database.js';

const MET = `
  SELECT 1 FROM runs
  WHERE tenant_id = @tenantId AND schedule_key = @scheduleKey
    AND scheduled_for >= @scheduledFrom AND scheduled_for <= @close
    AND state = 'succeeded' AND ${FINISHED_RUNS} AND finished_at >= @start AND finished_at <= @close
  LIMIT 1`;

export function judgeDeadline(sql: SqliteDatabase, c: Check, now: number): Alert[] {
  const start = c.windowStart;
  if (c.deadline === null || start === null) return [];
  const met = sql.stmt(MET).get(windowLookup(c, start)) !== undefined;
  const j = judgedWindow(c, start, met, now);
  sql
    .stmt('UPDATE checks SET window_start = ?, next_check_at = ? WHERE tenant_id = ? AND name = ?')
    .run(j.windowStart, j.nextCheckAt, c.tenantId, c.name);
  if ('clear' in j.op) return resolveOne(sql, j.op.clear, now);
  const a = openOne(sql, j.op.open, now);
  return a ? [a] : [];
}

export function putCheck(
  sql: SqliteDatabase,
  tenantId: string,
  input: unknown,
  now: number,
): { check: Check; created: boolean } {
  const c = parseCheckInput(input, now);
  return sql.write(() => {
    const existing = sql.stmt(CHECK).get(tenantId, c.name) as CheckRow | undefined;
    if (c.kind === 'deadline') {
      const w = firstWindow(c.deadline, now);
      sql
        .stmt(
          `INSERT INTO checks (tenant_id, name, kind, every_ms, last_beat_at, next_check_at, created_at, updated_at,
             schedule_key, spec, tz, within_ms, window_start)
           VALUES (@tenantId, @name, 'deadline', 0, NULL, @next, @now, @now, @schedule, @spec, @tz, @within, @start)
           ON CONFLICT (tenant_id, name) DO UPDATE SET kind = 'deadline', every_ms = 0, last_beat_at = NULL,
             next_check_at = excluded.next_check_at, updated_at = excluded.updated_at,
             schedule_key = excluded.schedule_key, spec = excluded.spec, tz = excluded.tz,
             within_ms = excluded.within_ms, window_start = excluded.window_start`,
        )
        .run({
          tenantId,
          name: c.name,
          next: w.nextCheckAt,
          now,
          schedule: c.deadline.schedule,
          spec: c.deadline.spec,
          tz: c.deadline.tz,
          within: c.deadline.withinMs,
          start: w.windowStart,
        });
    } else {
      // Armed from the last heartbeat (or from now for a new check); an open alert keeps it disarmed.
      const wasHeartbeat = existing?.kind === 'heartbeat';
      const from = (wasHeartbeat ? existing?.last_beat_at : null) ?? existing?.created_at ?? now;
      const disarmed = wasHeartbeat && existing.next_check_at === null;
      const next = disarmed ? null : Math.max(from + c.everyMs, now);
      sql
        .stmt(
          `INSERT INTO checks (tenant_id, name, kind, every_ms, last_beat_at, next_check_at, created_at, updated_at)
           VALUES (?, ?, ?, ?, NULL, ?, ?, ?)
           ON CONFLICT (tenant_id, name) DO UPDATE SET kind = excluded.kind, every_ms = excluded.every_ms,
             next_check_at = excluded.next_check_at, updated_at = excluded.updated_at, schedule_key = NULL,
             spec = NULL, tz = NULL, within_ms = NULL, window_start = NULL`,
        )
        .run(tenantId, c.name, c.kind, c.everyMs, next, now, now);
    }
    // A check that changed kind leaves the alert of its former kind behind: resolved.
    if (existing !== undefined && existing.kind !== c.kind) {
      resolveOne(
        sql,
        { tenantId, subjectKind: 'check', subject: c.name, kinds: [missedKindOf(existing.kind)] },
        now,
      );
    }
    const row = sql.stmt(CHECK).get(tenantId, c.name) as CheckRow;
    return { check: toCheck(row), created: existing === undefined };
  });
}
