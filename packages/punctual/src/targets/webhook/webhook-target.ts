// The webhook target: delivers a run as a signed JSON request (Standard Webhooks headers) and maps the answer
// to an Outcome: 2xx ok, 408/429/5xx/timeouts/connection errors retry, other statuses fail. It owns the
// request body, the signature headers, the save-time check of literal addresses and the outcome rules. It
// must never follow a redirect, connect to an address the guard refused, or throw out of `deliver`.

import type { Json } from '../../domain/json.js';
import type { Outcome } from '../../domain/outcome.js';
import { messageId } from '../../domain/message-id.js';
import { parseTarget, targetKind, type Target, type WebhookTarget } from '../../domain/target.js';
import { PunctualError, describeThrown, isPunctualError } from '../../errors.js';
import { AddressGuard, parseCidrList } from '../address-guard.js';
import { isStoreUnavailable } from '../../store/store-unavailable.js';
import type { Delivery, TargetDriver } from '../target.js';
import { sendWebhook, type WebhookResponse } from './webhook-request.js';
import { signatureHeader } from './webhook-signature.js';

export interface WebhookSecrets {
  /** The secret requests are signed with (`whsec_...`). */
  current: string;
  /** During a rotation's grace period, the secret it replaced: requests then carry both signatures. */
  previous?: string | null;
}

export interface WebhookTargetOptions {
  /** The tenant's signing secrets, read for every attempt (so a rotation applies at once). */
  secrets: (tenantId: string) => Promise<WebhookSecrets>;
  /**
   * CIDR blocks that may be reached although they are loopback, private, link-local or otherwise special
   * (`127.0.0.0/8,::1/128`). Default: the PUNCTUAL_ALLOW_PRIVATE_TARGETS environment variable, else none.
   */
  allowPrivate?: string;
  /** Per-request timeout when the target sets none. Default 10 s. */
  defaultTimeoutMs?: number;
  /** How much of a response body is kept (on the result, or in the error message). Default 4096 bytes. */
  maxResponseBytes?: number;
  /** The longest Retry-After honoured; longer asks are cut to this. Default 1 h. */
  maxRetryAfterMs?: number;
  /** Default `punctual-webhook/1`. A target's own `User-Agent` header wins. */
  userAgent?: string;
  /** A guard to use instead of one built from `allowPrivate` (shared with other outbound clients). */
  guard?: AddressGuard;
  /**
   * When `secrets` fails because the store does not answer (isStoreUnavailable), the run is handed back
   * without spending an attempt and is due again this much later. Default 5 s.
   */
  secretsUnavailableDelayMs?: number;
}

/** What a successful delivery keeps as the run's result. */
export interface WebhookResult {
  status: number;
  /** The response body: JSON when it is JSON and complete, else text (at most maxResponseBytes), null when empty. */
  body: Json;
  truncated?: true;
}

/** The JSON body every webhook request carries. */
export interface WebhookBody {
  id: string;
  scheduleKey: string;
  scheduledFor: string;
  firedAt: string;
  attempt: number;
  payload: Json | null;
}

const RETRYABLE = (status: number): boolean =>
  status === 408 || status === 429 || (status >= 500 && status <= 599);

/**
 * Builds the request body for one attempt (exported for documentation and tests). `id` is the message id:
 * the occurrence id unless the target has an id template (message-id.ts).
 */
export function webhookBody(
  d: Pick<Delivery, 'run' | 'payload' | 'startedAt'>,
  id: string = d.run.occurrenceId,
): WebhookBody {
  return {
    id,
    scheduleKey: d.run.scheduleKey,
    scheduledFor: new Date(d.run.scheduledFor).toISOString(),
    firedAt: new Date(d.startedAt).toISOString(),
    attempt: d.run.attempt,
    payload: d.payload,
  };
}

/** The webhook target driver. */
export function webhookTarget(opts: WebhookTargetOptions): TargetDriver {
  const guard =
    opts.guard ??
    new AddressGuard(
      parseCidrList(opts.allowPrivate ?? process.env.PUNCTUAL_ALLOW_PRIVATE_TARGETS, 'allowPrivate'),
    );
  const defaultTimeoutMs = opts.defaultTimeoutMs ?? 10_000;
  const maxResponseBytes = opts.maxResponseBytes ?? 4096;
  const maxRetryAfterMs = opts.maxRetryAfterMs ?? 3_600_000;
  const secretsUnavailableDelayMs = opts.secretsUnavailableDelayMs ?? 5_000;
  const userAgent = opts.userAgent ?? 'punctual-webhook/1';

  return {
    kind: 'webhook',

    validate(target: Target): void {
      const { webhook } = parseTarget(target) as WebhookTarget;
      try {
        guard.checkLiteral(new URL(webhook.url).hostname);
      } catch (e) {
        if (isPunctualError(e)) {
          throw new PunctualError(e.code, e.message, { ...e.details, field: 'target.webhook.url' });
        }
        throw e;
      }
    },

    async deliver(d: Delivery): Promise<Outcome> {
      if (targetKind(d.schedule.target) !== 'webhook') {
        return { type: 'fail', error: { code: 'ATTEMPT_FAILED', message: 'not a webhook target' } };
      }
      const target = (d.schedule.target as WebhookTarget).webhook;
      let url: URL;
      try {
        url = new URL(target.url);
      } catch {
        return {
          type: 'fail',
          error: { code: 'SCHEDULE_INVALID', message: `invalid webhook URL ${target.url}` },
        };
      }

      const id = messageId(target.idTemplate, d.run);
      const body = JSON.stringify(webhookBody(d, id));
      const timestamp = Math.floor(d.startedAt / 1000);
      let signature: string;
      try {
        const s = await opts.secrets(d.run.tenantId);
        signature = signatureHeader(s.previous ? [s.current, s.previous] : [s.current], id, timestamp, body);
      } catch (e) {
        const error = {
          code: 'WEBHOOK_SECRET_UNAVAILABLE',
          message: `the signing secret could not be read: ${describeThrown(e).message}`,
        };
        // The store is away (or closing): not the target's failure, so the attempt is not spent.
        const away = isStoreUnavailable(e) || (isPunctualError(e) && e.code === 'STORE_CLOSED');
        return away
          ? { type: 'release', afterMs: secretsUnavailableDelayMs, error }
          : { type: 'retry', error };
      }

      const exchange = await sendWebhook({
        url,
        method: target.method ?? 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': userAgent,
          ...target.headers,
          // The attempt's span (W3C Trace Context) when the scheduler traces: it wins over a fixed header.
          ...d.trace?.headers,
          'webhook-id': id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signature,
        },
        body,
        timeoutMs: target.timeoutMs ?? defaultTimeoutMs,
        signal: d.signal,
        maxResponseBytes,
        guard,
      });

      switch (exchange.kind) {
        case 'refused':
          // Permanent for this attempt's purposes: retrying would ask the same resolver for the same answer.
          return { type: 'fail', error: { code: 'TARGET_ADDRESS_REFUSED', message: exchange.error.message } };
        case 'timeout':
          return { type: 'retry', error: { code: 'WEBHOOK_TIMEOUT', message: exchange.message } };
        case 'connection':
          return { type: 'retry', error: { code: 'WEBHOOK_CONNECTION', message: exchange.message } };
        case 'response':
          return outcomeOf(exchange, maxRetryAfterMs);
      }
    },
  };
}

function outcomeOf(r: WebhookResponse, maxRetryAfterMs: number): Outcome {
  const { status } = r;
  if (status >= 200 && status <= 299) {
    const result: WebhookResult = { status, body: parseBody(r) };
    if (r.truncated) result.truncated = true;
    return { type: 'ok', result: result as unknown as Json };
  }
  const code = `WEBHOOK_HTTP_${status}`;
  let message = `HTTP ${status}${r.statusText ? ` ${r.statusText}` : ''}`;
  if (status >= 300 && status <= 399) {
    const location = typeof r.headers.location === 'string' ? ` to ${r.headers.location.slice(0, 512)}` : '';
    message += `: redirects are not followed (redirected${location})`;
    return { type: 'fail', error: { code, message } };
  }
  if (r.body !== '') message += `: ${r.body}${r.truncated ? '…' : ''}`;
  if (RETRYABLE(status)) {
    const afterMs = retryAfter(r, maxRetryAfterMs);
    return afterMs === undefined
      ? { type: 'retry', error: { code, message } }
      : { type: 'retry', error: { code, message }, afterMs };
  }
  return { type: 'fail', error: { code, message } };
}

function parseBody(r: WebhookResponse): Json {
  if (r.body === '') return null;
  const type = String(r.headers['content-type'] ?? '');
  if (!r.truncated && /[/+]json\b/i.test(type)) {
    try {
      return JSON.parse(r.body) as Json;
    } catch {
      // Not JSON after all: keep the text.
    }
  }
  return r.body;
}

/**
 * Retry-After as milliseconds: delay-seconds, or an HTTP date measured against the response's own Date
 * header (both from the receiver's clock, so no local clock is read). Capped at `max`.
 */
function retryAfter(r: WebhookResponse, max: number): number | undefined {
  const value = r.headers['retry-after']?.trim();
  if (!value) return undefined;
  let ms: number | undefined;
  if (/^\d{1,10}$/.test(value)) ms = Number(value) * 1000;
  else {
    const at = Date.parse(value);
    const now = Date.parse(String(r.headers.date ?? ''));
    if (Number.isFinite(at) && Number.isFinite(now)) ms = Math.max(0, at - now);
  }
  return ms === undefined ? undefined : Math.min(ms, max);
}
