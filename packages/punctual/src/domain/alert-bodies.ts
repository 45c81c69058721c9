// The request bodies an alert transition is sent as, one per channel kind: the signed webhook's JSON, a
// Slack-compatible incoming-webhook body (`text`, `blocks`) and an Events API v2 body (`routing_key`,
// `event_action` trigger|resolve, `dedup_key`, `payload`). Pure: it must never perform I/O or read a clock
// (instants come from the alert).

import type { Alert, AlertChannel, AlertTransition } from './alert.js';
import type { Json } from './json.js';

/** The id a transition is sent under (`webhook-id`): stable across retries, so receivers can deduplicate. */
export function alertMessageId(alert: Alert, transition: AlertTransition): string {
  return `alert_${alert.id}_${transition}`;
}

/** The key an incident system deduplicates an alert's trigger and resolve on. */
export function alertDedupKey(alert: Alert): string {
  return `punctual-alert-${alert.tenantId}-${alert.id}`;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** The alert as the webhook body and the API show it. */
export function alertJson(alert: Alert): { [k: string]: Json } {
  return {
    id: alert.id,
    kind: alert.kind,
    subjectKind: alert.subjectKind,
    subject: alert.subject,
    state: alert.state,
    openedAt: iso(alert.openedAt),
    resolvedAt: iso(alert.resolvedAt),
    summary: alert.summary,
    details: alert.details,
  };
}

/** The webhook channel's body: `{ type: "alert.opened" | "alert.resolved", tenantId, alert }`. */
export function webhookAlertBody(alert: Alert, transition: AlertTransition): Json {
  return { type: `alert.${transition}`, tenantId: alert.tenantId, alert: alertJson(alert) };
}

/** One line: `[OPEN] summary` or `[RESOLVED] summary`. */
export function alertLine(alert: Alert, transition: AlertTransition): string {
  return `[${transition === 'opened' ? 'OPEN' : 'RESOLVED'}] ${alert.summary}`;
}

/** The slack channel's body: `{ text, blocks }`. */
export function slackAlertBody(alert: Alert, transition: AlertTransition): Json {
  const text = alertLine(alert, transition);
  const subject = `${alert.subjectKind} \`${alert.subject}\``;
  return {
    text,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `*${text}*` } },
      {
        type: 'context',
        elements: [
          {
            type: 'mrkdwn',
            text: `${alert.kind} · ${subject} · alert ${alert.id} · tenant ${alert.tenantId}`,
          },
        ],
      },
    ],
  };
}

/** The pagerduty channel's Events API v2 body: a trigger on open, a resolve (same dedup_key) on resolve. */
export function pagerDutyAlertBody(alert: Alert, transition: AlertTransition, channel: AlertChannel): Json {
  const base = { routing_key: channel.routingKey ?? '', dedup_key: alertDedupKey(alert) };
  if (transition === 'resolved') return { ...base, event_action: 'resolve' };
  return {
    ...base,
    event_action: 'trigger',
    payload: {
      summary: alert.summary.slice(0, 1024),
      source: `punctual/${alert.tenantId}`,
      severity: 'error',
      timestamp: iso(alert.openedAt),
      component: alert.subject,
      group: alert.subjectKind,
      class: alert.kind,
      custom_details: alertJson(alert),
    },
  };
}

/** The body for the channel's kind. */
export function alertBodyFor(alert: Alert, transition: AlertTransition, channel: AlertChannel): Json {
  switch (channel.kind) {
    case 'webhook':
      return webhookAlertBody(alert, transition);
    case 'slack':
      return slackAlertBody(alert, transition);
    case 'pagerduty':
      return pagerDutyAlertBody(alert, transition, channel);
  }
}
