// Alerting values as the API shows them: instants as ISO-8601, tenant ids left out (the caller's own).
// Shape only: it must never read a store or a clock.

import type { Alert, AlertChannel, AlertDelivery, Check } from 'punctual';
import type { z } from 'zod';
import type * as s from './schemas.js';

const iso = (ms: number): string => new Date(ms).toISOString();
const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));

export function alertView(a: Alert): z.output<typeof s.alert> {
  return {
    id: a.id,
    kind: a.kind,
    subjectKind: a.subjectKind,
    subject: a.subject,
    state: a.state,
    openedAt: iso(a.openedAt),
    resolvedAt: isoOrNull(a.resolvedAt),
    summary: a.summary,
    details: a.details,
  };
}

export function alertDeliveryView(d: AlertDelivery): z.output<typeof s.alertDelivery> {
  return {
    id: d.id,
    channel: d.channel,
    transition: d.transition,
    state: d.state,
    attempts: d.attempts,
    nextAttemptAt: d.state === 'pending' ? isoOrNull(d.nextAttemptAt) : null,
    deliveredAt: isoOrNull(d.deliveredAt),
    lastError: d.lastError,
    createdAt: iso(d.createdAt),
  };
}

export function alertChannelView(c: AlertChannel): z.output<typeof s.alertChannel> {
  return {
    name: c.name,
    kind: c.kind,
    url: c.url,
    routingKey: c.routingKey,
    createdAt: iso(c.createdAt),
    updatedAt: iso(c.updatedAt),
  };
}

export function checkView(c: Check): z.output<typeof s.check> {
  return {
    name: c.name,
    kind: c.kind,
    everyMs: c.everyMs,
    deadline: c.deadline,
    windowStart: isoOrNull(c.windowStart),
    lastBeatAt: isoOrNull(c.lastBeatAt),
    nextCheckAt: isoOrNull(c.nextCheckAt),
    createdAt: iso(c.createdAt),
    updatedAt: iso(c.updatedAt),
  };
}
