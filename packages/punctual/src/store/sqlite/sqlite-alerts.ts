// Alerting on SQLite: channels and checks (by name; writing a check: sqlite-checks.ts), alerts opened
// insert-if-absent on the open-alert unique index, resolved by conditional update, and the delivery outbox
// written in the same BEGIN IMMEDIATE transaction as each transition, claimed with a lease and settled
// against its claim. It must never read a clock (`now` is a parameter), nor build a statement from input.

import type {
  Alert,
  AlertChannel,
  AlertClearance,
  AlertCondition,
  AlertDelivery,
  Check,
  ClaimedAlertDelivery,
} from '../../domain/alert.js';
import { ALERT_DELIVERY_MAX_ATTEMPTS, alertDeliveryBackoffMs } from '../../domain/alert.js';
import { parseAlertChannelInput } from '../../domain/alert-input.js';
import type { AlertDeliveryResult, AlertListQuery } from '../alert-store.js';
import {
  alertIdOf,
  heartbeatMissedSummary,
  toAlert,
  toAlertChannel,
  toAlertDelivery,
  toCheck,
  type AlertChannelRow,
  type AlertDeliveryRow,
  type AlertRow,
  type CheckRow,
} from '../alert-rows.js';
import type { SqliteDatabase } from './sqlite-database.js';
import { CHECK_ALERT_KINDS } from '../../domain/deadline-check.js';
import { judgeDeadline } from './sqlite-checks.js';

const CHANNEL = 'SELECT * FROM alert_channels WHERE tenant_id = ? AND name = ?';
export const CHECK = 'SELECT * FROM checks WHERE tenant_id = ? AND name = ?';

const OPEN = `
  INSERT INTO alerts (tenant_id, kind, subject_kind, subject, state, opened_at, summary, details)
  VALUES (@tenantId, @kind, @subjectKind, @subject, 'open', @now, @summary, @details)
  ON CONFLICT (tenant_id, subject_kind, subject, kind) WHERE state = 'open' DO NOTHING
  RETURNING *`;

const RESOLVE = `
  UPDATE alerts SET state = 'resolved', resolved_at = @now
  WHERE tenant_id = @tenantId AND subject_kind = @subjectKind AND subject = @subject AND state = 'open'
    AND kind IN (SELECT value FROM json_each(@kinds))
  RETURNING *`;

// One outbox row per channel the tenant has at the moment of the transition.
const OUTBOX = `
  INSERT INTO alert_deliveries (tenant_id, alert_id, channel, transition, state, next_attempt_at, created_at)
  SELECT tenant_id, @alertId, name, @transition, 'pending', @now, @now FROM alert_channels
  WHERE tenant_id = @tenantId ORDER BY name`;

function addOutbox(sql: SqliteDatabase, alert: Alert, transition: 'opened' | 'resolved', now: number): void {
  sql.stmt(OUTBOX).run({ alertId: Number(alert.id), transition, now, tenantId: alert.tenantId });
}

export function openOne(sql: SqliteDatabase, c: AlertCondition, now: number): Alert | undefined {
  const row = sql.stmt(OPEN).get({
    tenantId: c.tenantId,
    kind: c.kind,
    subjectKind: c.subjectKind,
    subject: c.subject,
    now,
    summary: c.summary,
    details: JSON.stringify(c.details),
  }) as AlertRow | undefined;
  if (row === undefined) return undefined;
  const alert = toAlert(row);
  addOutbox(sql, alert, 'opened', now);
  return alert;
}

export function resolveOne(sql: SqliteDatabase, c: AlertClearance, now: number): Alert[] {
  const rows = sql.stmt(RESOLVE).all({
    now,
    tenantId: c.tenantId,
    subjectKind: c.subjectKind,
    subject: c.subject,
    kinds: JSON.stringify(c.kinds),
  }) as AlertRow[];
  const alerts = rows.map(toAlert);
  for (const a of alerts) addOutbox(sql, a, 'resolved', now);
  return alerts;
}

export function putAlertChannel(
  sql: SqliteDatabase,
  tenantId: string,
  input: unknown,
  now: number,
): { channel: AlertChannel; created: boolean } {
  const c = parseAlertChannelInput(input);
  return sql.write(() => {
    const existing = sql.stmt(CHANNEL).get(tenantId, c.name) as AlertChannelRow | undefined;
    sql
      .stmt(
        `INSERT INTO alert_channels (tenant_id, name, kind, url, routing_key, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (tenant_id, name) DO UPDATE SET kind = excluded.kind, url = excluded.url,
           routing_key = excluded.routing_key, updated_at = excluded.updated_at`,
      )
      .run(tenantId, c.name, c.kind, c.url, c.routingKey, now, now);
    const row = sql.stmt(CHANNEL).get(tenantId, c.name) as AlertChannelRow;
    return { channel: toAlertChannel(row), created: existing === undefined };
  });
}

export function getAlertChannel(
  sql: SqliteDatabase,
  tenantId: string,
  name: string,
): AlertChannel | undefined {
  const row = sql.read(() => sql.stmt(CHANNEL).get(tenantId, name)) as AlertChannelRow | undefined;
  return row === undefined ? undefined : toAlertChannel(row);
}

export function listAlertChannels(sql: SqliteDatabase, tenantId: string): AlertChannel[] {
  const rows = sql.read(() =>
    sql.stmt('SELECT * FROM alert_channels WHERE tenant_id = ? ORDER BY name').all(tenantId),
  ) as AlertChannelRow[];
  return rows.map(toAlertChannel);
}

export function deleteAlertChannel(sql: SqliteDatabase, tenantId: string, name: string): boolean {
  return sql.write(
    () =>
      sql.stmt('DELETE FROM alert_channels WHERE tenant_id = ? AND name = ?').run(tenantId, name).changes > 0,
  );
}

export function getCheck(sql: SqliteDatabase, tenantId: string, name: string): Check | undefined {
  const row = sql.read(() => sql.stmt(CHECK).get(tenantId, name)) as CheckRow | undefined;
  return row === undefined ? undefined : toCheck(row);
}

export function listChecks(sql: SqliteDatabase, tenantId: string): Check[] {
  const rows = sql.read(() =>
    sql.stmt('SELECT * FROM checks WHERE tenant_id = ? ORDER BY name').all(tenantId),
  ) as CheckRow[];
  return rows.map(toCheck);
}

export function deleteCheck(sql: SqliteDatabase, tenantId: string, name: string, now: number): boolean {
  return sql.write(() => {
    const gone =
      sql.stmt('DELETE FROM checks WHERE tenant_id = ? AND name = ?').run(tenantId, name).changes > 0;
    if (gone)
      resolveOne(sql, { tenantId, subjectKind: 'check', subject: name, kinds: CHECK_ALERT_KINDS }, now);
    return gone;
  });
}

export function recordHeartbeat(
  sql: SqliteDatabase,
  tenantId: string,
  name: string,
  now: number,
): Check | undefined {
  return sql.write(() => {
    const row = sql
      .stmt(
        `UPDATE checks SET last_beat_at = @now, next_check_at = @now + every_ms
         WHERE tenant_id = @tenantId AND name = @name AND kind = 'heartbeat' RETURNING *`,
      )
      .get({ now, tenantId, name }) as CheckRow | undefined;
    if (row === undefined) return undefined;
    resolveOne(sql, { tenantId, subjectKind: 'check', subject: name, kinds: ['heartbeat_missed'] }, now);
    return toCheck(row);
  });
}

export function evaluateDueChecks(sql: SqliteDatabase, now: number, limit: number): Alert[] {
  return sql.write(() => {
    const due = sql
      .stmt(
        `UPDATE checks SET next_check_at = NULL
         WHERE rowid IN (SELECT rowid FROM checks WHERE next_check_at IS NOT NULL AND next_check_at <= ?
                         ORDER BY next_check_at LIMIT ?)
         RETURNING *`,
      )
      .all(now, limit) as CheckRow[];
    const out: Alert[] = [];
    for (const r of due) {
      const c = toCheck(r);
      if (c.kind === 'deadline') {
        out.push(...judgeDeadline(sql, c, now));
        continue;
      }
      const a = openOne(
        sql,
        {
          tenantId: c.tenantId,
          kind: 'heartbeat_missed',
          subjectKind: 'check',
          subject: c.name,
          summary: heartbeatMissedSummary(c),
          details: { lastBeatAt: c.lastBeatAt, everyMs: c.everyMs, dueAt: r.next_check_at },
        },
        now,
      );
      if (a) out.push(a);
    }
    return out;
  });
}

export function nextCheckAt(sql: SqliteDatabase): number | null {
  return sql.read(
    () =>
      sql.pluck('SELECT MIN(next_check_at) FROM checks WHERE next_check_at IS NOT NULL').get() as
        number | null,
  );
}

export function openAlerts(sql: SqliteDatabase, conditions: readonly AlertCondition[], now: number): Alert[] {
  if (conditions.length === 0) return [];
  return sql.write(() => conditions.flatMap((c) => openOne(sql, c, now) ?? []));
}

/**
 * Resolves the open alerts the clearances name. Each settled success clears its schedule, so a batch of
 * settlements brings one clearance per schedule, and alerts are rarely open: with none open (a probe of
 * alerts_open) nothing is written and no write transaction is taken.
 */
export function resolveAlerts(
  sql: SqliteDatabase,
  clearances: readonly AlertClearance[],
  now: number,
): Alert[] {
  if (clearances.length === 0) return [];
  const anyOpen = sql.read(() =>
    sql.pluck(`SELECT EXISTS (SELECT 1 FROM alerts WHERE state = 'open')`).get(),
  );
  if (Number(anyOpen) === 0) return [];
  return sql.write(() => clearances.flatMap((c) => resolveOne(sql, c, now)));
}

export function listAlerts(sql: SqliteDatabase, q: AlertListQuery): Alert[] {
  const rows = sql.read(() =>
    sql
      .stmt(
        `SELECT * FROM alerts WHERE tenant_id = @tenantId
           AND (@state IS NULL OR state = @state)
           AND (@key IS NULL OR (subject_kind = 'schedule' AND subject = @key))
         ORDER BY id DESC LIMIT @limit`,
      )
      .all({ tenantId: q.tenantId, state: q.state ?? null, key: q.scheduleKey ?? null, limit: q.limit }),
  ) as AlertRow[];
  return rows.map(toAlert);
}

export function getAlert(
  sql: SqliteDatabase,
  tenantId: string,
  id: string,
): { alert: Alert; deliveries: AlertDelivery[] } | undefined {
  const n = alertIdOf(id);
  if (n === undefined) return undefined;
  return sql.read(() => {
    const row = sql.stmt('SELECT * FROM alerts WHERE tenant_id = ? AND id = ?').get(tenantId, n) as
      AlertRow | undefined;
    if (row === undefined) return undefined;
    const ds = sql
      .stmt('SELECT * FROM alert_deliveries WHERE alert_id = ? ORDER BY id')
      .all(n) as AlertDeliveryRow[];
    return { alert: toAlert(row), deliveries: ds.map(toAlertDelivery) };
  });
}

export function countOpenAlerts(sql: SqliteDatabase): { tenantId: string; kind: string; count: number }[] {
  const rows = sql.read(() =>
    sql
      .stmt(
        `SELECT tenant_id, kind, COUNT(*) AS count FROM alerts WHERE state = 'open'
         GROUP BY tenant_id, kind ORDER BY tenant_id, kind`,
      )
      .all(),
  ) as { tenant_id: string; kind: string; count: number }[];
  return rows.map((r) => ({ tenantId: r.tenant_id, kind: r.kind, count: Number(r.count) }));
}

export function claimAlertDeliveries(
  sql: SqliteDatabase,
  now: number,
  leaseMs: number,
  limit: number,
): ClaimedAlertDelivery[] {
  return sql.write(() => {
    const rows = sql
      .stmt(
        `UPDATE alert_deliveries SET next_attempt_at = @leaseEnd, claim = claim + 1
         WHERE id IN (SELECT id FROM alert_deliveries WHERE state = 'pending' AND next_attempt_at <= @now
                      ORDER BY next_attempt_at LIMIT @limit)
         RETURNING *`,
      )
      .all({ leaseEnd: now + leaseMs, now, limit }) as AlertDeliveryRow[];
    return rows.map((r) => {
      const alert = sql.stmt('SELECT * FROM alerts WHERE id = ?').get(r.alert_id) as AlertRow;
      const ch = sql.stmt(CHANNEL).get(alert.tenant_id, r.channel) as AlertChannelRow | undefined;
      return {
        delivery: toAlertDelivery(r),
        alert: toAlert(alert),
        channel: ch === undefined ? null : toAlertChannel(ch),
        claim: r.claim,
      };
    });
  });
}

export function settleAlertDelivery(
  sql: SqliteDatabase,
  claimed: ClaimedAlertDelivery,
  result: AlertDeliveryResult,
  now: number,
): { settled: boolean; state: AlertDelivery['state'] } {
  const attempts = claimed.delivery.attempts + 1;
  const state = result.ok
    ? 'delivered'
    : !result.retry || attempts >= ALERT_DELIVERY_MAX_ATTEMPTS
      ? 'failed'
      : 'pending';
  const n = sql.write(
    () =>
      sql
        .stmt(
          `UPDATE alert_deliveries SET state = @state, attempts = @attempts, next_attempt_at = @next,
             delivered_at = @deliveredAt, last_error = @error
           WHERE id = @id AND claim = @claim AND state = 'pending'`,
        )
        .run({
          state,
          attempts,
          next: state === 'pending' ? now + alertDeliveryBackoffMs(attempts) : null,
          deliveredAt: result.ok ? now : null,
          error: result.ok ? null : result.error.slice(0, 1000),
          id: Number(claimed.delivery.id),
          claim: claimed.claim,
        }).changes,
  );
  return { settled: n > 0, state };
}

export function nextAlertDeliveryAt(sql: SqliteDatabase): number | null {
  return sql.read(
    () =>
      sql.pluck("SELECT MIN(next_attempt_at) FROM alert_deliveries WHERE state = 'pending'").get() as
        number | null,
  );
}
