// Alerting on PostgreSQL: channels and checks (by name; writing a check: postgres-checks.ts), alerts opened
// insert-if-absent on the open-alert unique index (concurrent openers of one condition wait for each other
// and all but one do nothing), resolved by conditional update, and the delivery outbox written in the same
// transaction as each transition. Due checks and deliveries are taken with FOR UPDATE SKIP LOCKED, so each
// is worked by one instance; a delivery's claim is a lease (its next_attempt_at moved to the lease end)
// settled against its claim number. It must never read a clock (`now` is a parameter), nor put input into
// SQL text.

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
import type { PgDb } from './postgres-database.js';
import { CHECK_ALERT_KINDS } from '../../domain/deadline-check.js';
import { judgeDeadline } from './postgres-checks.js';
import type { PgQueryable } from './postgres-driver.js';

const ALERT_COLS = `id::text AS id, tenant_id, kind, subject_kind, subject, state, opened_at, resolved_at, summary,
  details::text AS details`;
const DELIVERY_COLS = `id::text AS id, alert_id::text AS alert_id, channel, transition, state, attempts,
  next_attempt_at, delivered_at, last_error, created_at, claim`;

async function addOutbox(
  db: PgDb,
  c: PgQueryable,
  alert: Alert,
  transition: 'opened' | 'resolved',
  now: number,
): Promise<void> {
  // One outbox row per channel the tenant has at the moment of the transition.
  await c.query(
    `INSERT INTO ${db.s}.alert_deliveries (tenant_id, alert_id, channel, transition, state, next_attempt_at,
       created_at)
     SELECT tenant_id, $1, name, $2, 'pending', $3, $3 FROM ${db.s}.alert_channels WHERE tenant_id = $4
     ORDER BY name`,
    [alert.id, transition, now, alert.tenantId],
  );
}

export async function openOne(
  db: PgDb,
  c: PgQueryable,
  a: AlertCondition,
  now: number,
): Promise<Alert | undefined> {
  const { rows } = await c.query<AlertRow>(
    `INSERT INTO ${db.s}.alerts (tenant_id, kind, subject_kind, subject, state, opened_at, summary, details)
     VALUES ($1, $2, $3, $4, 'open', $5, $6, $7::jsonb)
     ON CONFLICT (tenant_id, subject_kind, subject, kind) WHERE state = 'open' DO NOTHING
     RETURNING ${ALERT_COLS}`,
    [a.tenantId, a.kind, a.subjectKind, a.subject, now, a.summary, JSON.stringify(a.details)],
  );
  if (rows[0] === undefined) return undefined;
  const alert = toAlert(rows[0]);
  await addOutbox(db, c, alert, 'opened', now);
  return alert;
}

export async function resolveOne(db: PgDb, c: PgQueryable, r: AlertClearance, now: number): Promise<Alert[]> {
  const { rows } = await c.query<AlertRow>(
    `UPDATE ${db.s}.alerts SET state = 'resolved', resolved_at = $1
     WHERE tenant_id = $2 AND subject_kind = $3 AND subject = $4 AND state = 'open' AND kind = ANY($5::text[])
     RETURNING ${ALERT_COLS}`,
    [now, r.tenantId, r.subjectKind, r.subject, r.kinds],
  );
  const alerts = rows.map(toAlert);
  for (const a of alerts) await addOutbox(db, c, a, 'resolved', now);
  return alerts;
}

export async function putAlertChannel(
  db: PgDb,
  tenantId: string,
  input: unknown,
  now: number,
): Promise<{ channel: AlertChannel; created: boolean }> {
  const c = parseAlertChannelInput(input);
  const rows = await db.query<AlertChannelRow & { created: boolean }>(
    `INSERT INTO ${db.s}.alert_channels (tenant_id, name, kind, url, routing_key, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $6)
     ON CONFLICT (tenant_id, name) DO UPDATE SET kind = excluded.kind, url = excluded.url,
       routing_key = excluded.routing_key, updated_at = excluded.updated_at
     RETURNING *, (xmax = 0) AS created`,
    [tenantId, c.name, c.kind, c.url, c.routingKey, now],
  );
  return { channel: toAlertChannel(rows[0]!), created: rows[0]!.created };
}

export async function getAlertChannel(
  db: PgDb,
  tenantId: string,
  name: string,
): Promise<AlertChannel | undefined> {
  const rows = await db.query<AlertChannelRow>(
    `SELECT * FROM ${db.s}.alert_channels WHERE tenant_id = $1 AND name = $2`,
    [tenantId, name],
  );
  return rows[0] === undefined ? undefined : toAlertChannel(rows[0]);
}

export async function listAlertChannels(db: PgDb, tenantId: string): Promise<AlertChannel[]> {
  const rows = await db.query<AlertChannelRow>(
    `SELECT * FROM ${db.s}.alert_channels WHERE tenant_id = $1 ORDER BY name`,
    [tenantId],
  );
  return rows.map(toAlertChannel);
}

export async function deleteAlertChannel(db: PgDb, tenantId: string, name: string): Promise<boolean> {
  const rows = await db.query(
    `DELETE FROM ${db.s}.alert_channels WHERE tenant_id = $1 AND name = $2 RETURNING 1`,
    [tenantId, name],
  );
  return rows.length > 0;
}

export async function getCheck(db: PgDb, tenantId: string, name: string): Promise<Check | undefined> {
  const rows = await db.query<CheckRow>(`SELECT * FROM ${db.s}.checks WHERE tenant_id = $1 AND name = $2`, [
    tenantId,
    name,
  ]);
  return rows[0] === undefined ? undefined : toCheck(rows[0]);
}

export async function listChecks(db: PgDb, tenantId: string): Promise<Check[]> {
  const rows = await db.query<CheckRow>(`SELECT * FROM ${db.s}.checks WHERE tenant_id = $1 ORDER BY name`, [
    tenantId,
  ]);
  return rows.map(toCheck);
}

export async function deleteCheck(db: PgDb, tenantId: string, name: string, now: number): Promise<boolean> {
  return db.tx(async (c) => {
    const { rowCount } = await c.query(`DELETE FROM ${db.s}.checks WHERE tenant_id = $1 AND name = $2`, [
      tenantId,
      name,
    ]);
    if (!rowCount) return false;
    await resolveOne(db, c, { tenantId, subjectKind: 'check', subject: name, kinds: CHECK_ALERT_KINDS }, now);
    return true;
  });
}

export async function recordHeartbeat(
  db: PgDb,
  tenantId: string,
  name: string,
  now: number,
): Promise<Check | undefined> {
  return db.tx(async (c) => {
    const { rows } = await c.query<CheckRow>(
      `UPDATE ${db.s}.checks SET last_beat_at = $1, next_check_at = $1::bigint + every_ms
       WHERE tenant_id = $2 AND name = $3 AND kind = 'heartbeat' RETURNING *`,
      [now, tenantId, name],
    );
    if (rows[0] === undefined) return undefined;
    await resolveOne(
      db,
      c,
      { tenantId, subjectKind: 'check', subject: name, kinds: ['heartbeat_missed'] },
      now,
    );
    return toCheck(rows[0]);
  });
}

export async function evaluateDueChecks(db: PgDb, now: number, limit: number): Promise<Alert[]> {
  return db.tx(async (c) => {
    const { rows } = await c.query<CheckRow & { due_at: number }>(
      `WITH due AS (
         SELECT tenant_id, name, next_check_at FROM ${db.s}.checks
         WHERE next_check_at IS NOT NULL AND next_check_at <= $1
         ORDER BY next_check_at LIMIT $2 FOR UPDATE SKIP LOCKED)
       UPDATE ${db.s}.checks k SET next_check_at = NULL FROM due
       WHERE k.tenant_id = due.tenant_id AND k.name = due.name
       RETURNING k.*, due.next_check_at AS due_at`,
      [now, limit],
    );
    const opened: Alert[] = [];
    for (const r of rows) {
      const check = toCheck(r);
      if (check.kind === 'deadline') {
        opened.push(...(await judgeDeadline(db, c, check, now)));
        continue;
      }
      const a = await openOne(
        db,
        c,
        {
          tenantId: check.tenantId,
          kind: 'heartbeat_missed',
          subjectKind: 'check',
          subject: check.name,
          summary: heartbeatMissedSummary(check),
          details: { lastBeatAt: check.lastBeatAt, everyMs: check.everyMs, dueAt: Number(r.due_at) },
        },
        now,
      );
      if (a) opened.push(a);
    }
    return opened;
  });
}

export async function nextCheckAt(db: PgDb): Promise<number | null> {
  const rows = await db.query<{ at: number | null }>(
    `SELECT min(next_check_at) AS at FROM ${db.s}.checks WHERE next_check_at IS NOT NULL`,
  );
  return rows[0]?.at ?? null;
}

export async function openAlerts(
  db: PgDb,
  conditions: readonly AlertCondition[],
  now: number,
): Promise<Alert[]> {
  if (conditions.length === 0) return [];
  return db.tx(async (c) => {
    const out: Alert[] = [];
    for (const a of conditions) {
      const opened = await openOne(db, c, a, now);
      if (opened) out.push(opened);
    }
    return out;
  });
}

/**
 * Resolves the open alerts the clearances name. Each settled success clears its schedule, so a batch of
 * settlements brings one clearance per schedule, and alerts are rarely open: one statement first finds the
 * subjects that have an open alert (alerts_open), and only those are resolved, in one transaction. What the
 * probe does not see was not open when it ran, as a resolution then would not have found it.
 */
export async function resolveAlerts(
  db: PgDb,
  clearances: readonly AlertClearance[],
  now: number,
): Promise<Alert[]> {
  if (clearances.length === 0) return [];
  const open = await db.query<{ t: string; k: string; s: string }>(
    `SELECT DISTINCT a.tenant_id AS t, a.subject_kind AS k, a.subject AS s
       FROM unnest($1::text[], $2::text[], $3::text[]) AS u(t, k, s)
       JOIN ${db.s}.alerts AS a ON a.tenant_id = u.t AND a.subject_kind = u.k AND a.subject = u.s
      WHERE a.state = 'open'`,
    [
      clearances.map((r) => r.tenantId),
      clearances.map((r) => r.subjectKind),
      clearances.map((r) => r.subject),
    ],
  );
  if (open.length === 0) return [];
  const subjects = new Set(open.map((o) => JSON.stringify([o.t, o.k, o.s])));
  const due = clearances.filter((r) => subjects.has(JSON.stringify([r.tenantId, r.subjectKind, r.subject])));
  return db.tx(async (c) => {
    const out: Alert[] = [];
    for (const r of due) out.push(...(await resolveOne(db, c, r, now)));
    return out;
  });
}

export async function listAlerts(db: PgDb, q: AlertListQuery): Promise<Alert[]> {
  const rows = await db.query<AlertRow>(
    `SELECT ${ALERT_COLS} FROM ${db.s}.alerts WHERE tenant_id = $1
       AND ($2::text IS NULL OR state = $2)
       AND ($3::text IS NULL OR (subject_kind = 'schedule' AND subject = $3))
     ORDER BY id DESC LIMIT $4`,
    [q.tenantId, q.state ?? null, q.scheduleKey ?? null, q.limit],
  );
  return rows.map(toAlert);
}

export async function getAlert(
  db: PgDb,
  tenantId: string,
  id: string,
): Promise<{ alert: Alert; deliveries: AlertDelivery[] } | undefined> {
  const n = alertIdOf(id);
  if (n === undefined) return undefined;
  const rows = await db.query<AlertRow>(
    `SELECT ${ALERT_COLS} FROM ${db.s}.alerts WHERE tenant_id = $1 AND id = $2`,
    [tenantId, n],
  );
  if (rows[0] === undefined) return undefined;
  const ds = await db.query<AlertDeliveryRow>(
    `SELECT ${DELIVERY_COLS} FROM ${db.s}.alert_deliveries WHERE alert_id = $1 ORDER BY id`,
    [n],
  );
  return { alert: toAlert(rows[0]), deliveries: ds.map(toAlertDelivery) };
}

export async function countOpenAlerts(
  db: PgDb,
): Promise<{ tenantId: string; kind: string; count: number }[]> {
  const rows = await db.query<{ tenant_id: string; kind: string; count: number }>(
    `SELECT tenant_id, kind, count(*)::int AS count FROM ${db.s}.alerts WHERE state = 'open'
     GROUP BY tenant_id, kind ORDER BY tenant_id, kind`,
  );
  return rows.map((r) => ({ tenantId: r.tenant_id, kind: r.kind, count: Number(r.count) }));
}

export async function claimAlertDeliveries(
  db: PgDb,
  now: number,
  leaseMs: number,
  limit: number,
): Promise<ClaimedAlertDelivery[]> {
  return db.tx(async (c) => {
    const { rows } = await c.query<AlertDeliveryRow>(
      `UPDATE ${db.s}.alert_deliveries SET next_attempt_at = $1, claim = claim + 1
       WHERE id IN (SELECT id FROM ${db.s}.alert_deliveries WHERE state = 'pending' AND next_attempt_at <= $2
                    ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED)
       RETURNING ${DELIVERY_COLS}`,
      [now + leaseMs, now, limit],
    );
    const out: ClaimedAlertDelivery[] = [];
    for (const r of rows) {
      const { rows: alerts } = await c.query<AlertRow>(
        `SELECT ${ALERT_COLS} FROM ${db.s}.alerts WHERE id = $1`,
        [r.alert_id],
      );
      const alert = toAlert(alerts[0]!);
      const { rows: chs } = await c.query<AlertChannelRow>(
        `SELECT * FROM ${db.s}.alert_channels WHERE tenant_id = $1 AND name = $2`,
        [alert.tenantId, r.channel],
      );
      out.push({
        delivery: toAlertDelivery(r),
        alert,
        channel: chs[0] === undefined ? null : toAlertChannel(chs[0]),
        claim: Number(r.claim),
      });
    }
    return out;
  });
}

export async function settleAlertDelivery(
  db: PgDb,
  claimed: ClaimedAlertDelivery,
  result: AlertDeliveryResult,
  now: number,
): Promise<{ settled: boolean; state: AlertDelivery['state'] }> {
  const attempts = claimed.delivery.attempts + 1;
  const state = result.ok
    ? 'delivered'
    : !result.retry || attempts >= ALERT_DELIVERY_MAX_ATTEMPTS
      ? 'failed'
      : 'pending';
  const rows = await db.query(
    `UPDATE ${db.s}.alert_deliveries SET state = $1, attempts = $2, next_attempt_at = $3, delivered_at = $4,
       last_error = $5
     WHERE id = $6 AND claim = $7 AND state = 'pending' RETURNING 1`,
    [
      state,
      attempts,
      state === 'pending' ? now + alertDeliveryBackoffMs(attempts) : null,
      result.ok ? now : null,
      result.ok ? null : result.error.slice(0, 1000),
      claimed.delivery.id,
      claimed.claim,
    ],
  );
  return { settled: rows.length > 0, state };
}

export async function nextAlertDeliveryAt(db: PgDb): Promise<number | null> {
  const rows = await db.query<{ at: number | null }>(
    `SELECT min(next_attempt_at) AS at FROM ${db.s}.alert_deliveries WHERE state = 'pending'`,
  );
  return rows[0]?.at ?? null;
}
