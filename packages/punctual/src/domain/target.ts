// Where a run is delivered. A target is an object with exactly one key naming its kind. This module owns
// the shape and its validation; delivery lives in src/targets/. It must never perform I/O.

import { PunctualError } from '../errors.js';

export interface HandlerTarget {
  handler: string;
}
export interface WebhookTarget {
  webhook: { url: string; method?: string; headers?: Record<string, string>; timeoutMs?: number };
}
export type Target = HandlerTarget | WebhookTarget;
export type TargetKind = 'handler' | 'webhook';

const KINDS: readonly TargetKind[] = ['handler', 'webhook'];

export function targetKind(t: Target): TargetKind {
  return Object.keys(t)[0] as TargetKind;
}

/** Validates the shape of a target (not whether a handler exists: the scheduler checks that). */
export function parseTarget(input: unknown): Target {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new PunctualError('SCHEDULE_INVALID', 'target must be an object such as { "handler": "name" }', {
      field: 'target',
    });
  }
  const keys = Object.keys(input);
  const kind = keys[0] as TargetKind;
  if (keys.length !== 1 || !KINDS.includes(kind)) {
    throw new PunctualError('SCHEDULE_INVALID', `target must have exactly one of: ${KINDS.join(', ')}`, {
      field: 'target',
    });
  }
  const value = (input as Record<string, unknown>)[kind];
  if (kind === 'handler') {
    if (typeof value !== 'string' || value.length === 0 || value.length > 200) {
      throw new PunctualError('SCHEDULE_INVALID', 'target.handler must be a non-empty name', {
        field: 'target.handler',
      });
    }
    return { handler: value };
  }
  if (typeof value !== 'object' || value === null || typeof (value as { url?: unknown }).url !== 'string') {
    throw new PunctualError('SCHEDULE_INVALID', 'target.webhook.url must be a URL', { field: 'target.webhook.url' });
  }
  return { webhook: { ...(value as WebhookTarget['webhook']) } };
}
