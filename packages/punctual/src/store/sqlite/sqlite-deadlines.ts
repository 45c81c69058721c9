// Deadline checks on SQLite: judging one due deadline check inside the caller's BEGIN IMMEDIATE transaction
// (evaluateDueChecks took and disarmed it): looks for a run of its schedule that succeeded in the window
// (runs_tenant_key_time, one index range), opens or resolves `deadline_missed`, and arms the next window. It
// must never open a transaction itself, nor read a clock.

import type { Alert, Check } from '../../domain/alert.js';
import { judgedWindow, windowLookup } from '../deadline-rows.js';
import { openOne, resolveOne } from './sqlite-alerts.js';
import type { SqliteDatabase } from './sqlite-database.js';

const MET = `
  SELECT 1 FROM runs
  WHERE tenant_id = @tenantId AND schedule_key = @scheduleKey
    AND scheduled_for >= @scheduledFrom AND scheduled_for <= @close
    AND state = 'succeeded' AND finished_at >= @start AND finished_at <= @close
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
