// The pure parts of alerting: channel and check bodies refused with their codes and fields, the body each
// channel kind is sent, and the evaluation rules that turn run events into conditions and clearances.

import { describe, expect, it } from 'vitest';
import type { Alert, AlertChannel } from '../../src/domain/alert.js';
import { alertBodyFor, alertDedupKey, alertMessageId } from '../../src/domain/alert-bodies.js';
import { parseAlertChannelInput, parseCheckInput } from '../../src/domain/alert-input.js';
import { runDeadCondition, successClearance } from '../../src/engine/alert-evaluator.js';
import { runningRun, T0 } from '../support/fixtures.js';

const alert: Alert = {
  id: '42',
  tenantId: 'acme',
  kind: 'run_dead',
  subjectKind: 'schedule',
  subject: 'nightly',
  state: 'open',
  openedAt: T0,
  resolvedAt: null,
  summary: 'schedule "nightly": run 7 is dead',
  details: { runId: '7' },
};
const channel = (kind: AlertChannel['kind'], routingKey: string | null = null): AlertChannel => ({
  tenantId: 'acme',
  name: 'ops',
  kind,
  url: 'https://hooks.example.com/x',
  routingKey,
  createdAt: T0,
  updatedAt: T0,
});

function codeOf(fn: () => unknown): { code: string; field: unknown } {
  try {
    fn();
  } catch (e) {
    const err = e as { code: string; details?: { field?: unknown } };
    return { code: err.code, field: err.details?.field };
  }
  throw new Error('expected a throw');
}

describe('alert channel and check bodies', () => {
  it('accepts each channel kind and refuses bad fields with ALERT_CHANNEL_INVALID and the field', () => {
    expect(parseAlertChannelInput({ name: 'ops', kind: 'slack', url: 'https://h.example.com/a' })).toEqual({
      name: 'ops',
      kind: 'slack',
      url: 'https://h.example.com/a',
      routingKey: null,
    });
    const bad: [unknown, string][] = [
      [{ name: '', kind: 'webhook', url: 'https://h.example.com' }, 'name'],
      [{ name: 'a', kind: 'email', url: 'https://h.example.com' }, 'kind'],
      [{ name: 'a', kind: 'webhook', url: 'ftp://h.example.com' }, 'url'],
      [{ name: 'a', kind: 'webhook', url: 'https://u:p@h.example.com' }, 'url'],
      [{ name: 'a', kind: 'pagerduty', url: 'https://h.example.com' }, 'routingKey'],
      [{ name: 'a', kind: 'webhook', url: 'https://h.example.com', routingKey: 'x' }, 'routingKey'],
      [{ name: 'a', kind: 'webhook', url: 'https://h.example.com', secret: 'x' }, 'secret'],
    ];
    for (const [input, field] of bad) {
      expect(codeOf(() => parseAlertChannelInput(input))).toEqual({ code: 'ALERT_CHANNEL_INVALID', field });
    }
  });

  it('accepts a heartbeat check and refuses a bad one with CHECK_INVALID and the field', () => {
    expect(parseCheckInput({ name: 'backup', kind: 'heartbeat', every: 'PT10M' })).toEqual({
      name: 'backup',
      kind: 'heartbeat',
      everyMs: 600_000,
    });
    expect(codeOf(() => parseCheckInput({ name: 'b', kind: 'cron', every: '1m' }))).toEqual({
      code: 'CHECK_INVALID',
      field: 'kind',
    });
    expect(codeOf(() => parseCheckInput({ name: 'b', kind: 'heartbeat', every: 'soon' }))).toEqual({
      code: 'CHECK_INVALID',
      field: 'every',
    });
    expect(codeOf(() => parseCheckInput({ name: 'b', kind: 'heartbeat', every: '500ms' }))).toEqual({
      code: 'CHECK_INVALID',
      field: 'every',
    });
  });
});

describe('channel bodies', () => {
  it('sends a webhook channel the alert with its transition', () => {
    expect(alertBodyFor(alert, 'opened', channel('webhook'))).toEqual({
      type: 'alert.opened',
      tenantId: 'acme',
      alert: {
        id: '42',
        kind: 'run_dead',
        subjectKind: 'schedule',
        subject: 'nightly',
        state: 'open',
        openedAt: new Date(T0).toISOString(),
        resolvedAt: null,
        summary: alert.summary,
        details: { runId: '7' },
      },
    });
    expect(alertMessageId(alert, 'resolved')).toBe('alert_42_resolved');
  });

  it('sends a slack channel text and blocks', () => {
    const body = alertBodyFor(alert, 'resolved', channel('slack')) as { text: string; blocks: unknown[] };
    expect(body.text).toBe('[RESOLVED] schedule "nightly": run 7 is dead');
    expect(body.blocks).toHaveLength(2);
  });

  it('sends a pagerduty channel a trigger, then a resolve with the same dedup key', () => {
    const trigger = alertBodyFor(alert, 'opened', channel('pagerduty', 'rk')) as Record<string, unknown>;
    expect(trigger).toMatchObject({
      routing_key: 'rk',
      event_action: 'trigger',
      dedup_key: alertDedupKey(alert),
      payload: { summary: alert.summary, source: 'punctual/acme', severity: 'error', class: 'run_dead' },
    });
    expect(alertBodyFor(alert, 'resolved', channel('pagerduty', 'rk'))).toEqual({
      routing_key: 'rk',
      dedup_key: 'punctual-alert-acme-42',
      event_action: 'resolve',
    });
  });
});

describe('evaluation rules', () => {
  it('a dead run opens run_dead about its schedule; a success clears what a success clears', () => {
    const run = runningRun({ state: 'dead', attempt: 3, error: { message: 'HTTP 500' } });
    const c = runDeadCondition(run);
    expect(c).toMatchObject({ kind: 'run_dead', subjectKind: 'schedule', subject: run.scheduleKey });
    expect(c.summary).toContain('after 3 attempt(s): HTTP 500');
    // Expectations, failure rates and exhausted specs clear by their own rules, not by any success.
    expect(successClearance(run).kinds).toEqual(['run_dead', 'schedule_not_fired']);
  });
});
