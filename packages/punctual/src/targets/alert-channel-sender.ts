// Sends one alert transition to one channel over HTTP: the body its kind asks (domain/alert-bodies.ts),
// through the same AddressGuard and request code as the webhook target, and for `webhook` channels the same
// Standard Webhooks signature with the tenant's secrets. It maps the answer to a delivery result: 2xx
// delivered; 408, 429, 5xx, timeouts and connection errors retried; a refused address or another status
// given up. It must never throw for a failed delivery, follow a redirect, or log a secret.

import { alertBodyFor, alertMessageId } from '../domain/alert-bodies.js';
import type { ClaimedAlertDelivery } from '../domain/alert.js';
import type { AlertDeliveryResult } from '../store/alert-store.js';
import type { AddressGuard } from './address-guard.js';
import { sendWebhook } from './webhook/webhook-request.js';
import { signatureHeader } from './webhook/webhook-signature.js';
import type { WebhookSecrets } from './webhook/webhook-target.js';

/** Delivers one claimed alert delivery; resolves with how it ended. */
export type AlertSender = (
  claimed: ClaimedAlertDelivery,
  signal: AbortSignal,
) => Promise<AlertDeliveryResult>;

export interface AlertSenderOptions {
  guard: AddressGuard;
  /** The tenant's signing secrets (the webhook target's): webhook channels are signed with them. */
  secrets: (tenantId: string) => Promise<WebhookSecrets>;
  /** Per-request timeout. Default 10 s. */
  timeoutMs?: number;
  /** The epoch ms for the `webhook-timestamp` header (the engine's clock). */
  now: () => number;
}

const RETRIED = new Set([408, 429]);

export function alertChannelSender(opts: AlertSenderOptions): AlertSender {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  return async ({ alert, delivery, channel }, signal) => {
    if (channel === null) return { ok: false, error: 'the channel was deleted', retry: false };
    const body = JSON.stringify(alertBodyFor(alert, delivery.transition, channel));
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'punctual-alerts/1',
    };
    if (channel.kind === 'webhook') {
      let secrets: WebhookSecrets;
      try {
        secrets = await opts.secrets(alert.tenantId);
      } catch (e) {
        return {
          ok: false,
          error: `the signing secret could not be read: ${(e as Error).message}`,
          retry: true,
        };
      }
      const id = alertMessageId(alert, delivery.transition);
      const timestamp = Math.floor(opts.now() / 1000);
      const keys = [secrets.current, ...(secrets.previous ? [secrets.previous] : [])];
      headers['webhook-id'] = id;
      headers['webhook-timestamp'] = String(timestamp);
      headers['webhook-signature'] = signatureHeader(keys, id, timestamp, body);
    }
    const x = await sendWebhook({
      url: new URL(channel.url),
      method: 'POST',
      headers,
      body,
      timeoutMs,
      signal,
      maxResponseBytes: 1024,
      guard: opts.guard,
    });
    switch (x.kind) {
      case 'response':
        if (x.status >= 200 && x.status < 300) return { ok: true };
        return {
          ok: false,
          error: `HTTP ${x.status} ${x.statusText}`.trim(),
          retry: x.status >= 500 || RETRIED.has(x.status),
        };
      case 'refused':
        return { ok: false, error: x.error.message, retry: false };
      case 'timeout':
        return { ok: false, error: `timeout: ${x.message}`, retry: true };
      case 'connection':
        return { ok: false, error: `connection: ${x.message}`, retry: true };
    }
  };
}
