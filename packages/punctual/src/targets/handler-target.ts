// The in-process target: named handler functions registered on the scheduler. It owns the registry, the
// optional payload check at save time, and the mapping of a handler's return or throw to an Outcome.

import type { Json } from '../domain/json.js';
import type { Outcome } from '../domain/outcome.js';
import type { Target } from '../domain/target.js';
import { PunctualError, describeThrown } from '../errors.js';
import { isOutcome } from './outcomes.js';
import type { Delivery, TargetDriver } from './target.js';
import type { TenantApi } from '../tenant-api.js';

export interface HandlerContext<P = Json | null> {
  run: {
    id: string;
    occurrenceId: string;
    tenantId: string;
    scheduleKey: string;
    scheduledFor: number;
    attempt: number;
    checks: number;
    kind: string;
  };
  payload: P;
  /** Aborted on timeout, lease loss, cancellation or shutdown: stop work when it fires. */
  signal: AbortSignal;
  /** The run's tenant's schedules: put follow-up schedules from a handler. */
  schedules: TenantApi;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Handler<P = any> = (ctx: HandlerContext<P>) => unknown;

/** Anything with `parse` that throws on bad input (a zod schema, for example) or a plain check function. */
export type PayloadSchema = { parse(value: unknown): unknown } | ((value: unknown) => unknown);

interface Entry {
  fn: Handler;
  schema: PayloadSchema | undefined;
}

export class HandlerTarget implements TargetDriver {
  readonly kind = 'handler' as const;
  readonly #handlers = new Map<string, Entry>();

  constructor(private readonly tenantApi: (tenantId: string) => TenantApi) {}

  register(name: string, fn: Handler, schema?: PayloadSchema): void {
    this.#handlers.set(name, { fn, schema });
  }

  validate(target: Target, payload: Json | null): void {
    const name = (target as { handler: string }).handler;
    const entry = this.#handlers.get(name);
    if (!entry) {
      throw new PunctualError('HANDLER_UNKNOWN', `no handler named "${name}" is registered`, {
        field: 'target.handler',
        handler: name,
      });
    }
    if (!entry.schema) return;
    try {
      const check = entry.schema;
      if (typeof check === 'function') {
        const verdict = check(payload);
        if (verdict === false || typeof verdict === 'string') throw new Error(verdict || 'rejected');
      } else check.parse(payload);
    } catch (e) {
      throw new PunctualError(
        'PAYLOAD_INVALID',
        `payload rejected by handler "${name}": ${describeThrown(e).message}`,
        {
          field: 'payload',
        },
      );
    }
  }

  async deliver(d: Delivery): Promise<Outcome> {
    const name = (d.schedule.target as { handler: string }).handler;
    const entry = this.#handlers.get(name);
    if (!entry) {
      return {
        type: 'retry',
        error: { code: 'HANDLER_UNKNOWN', message: `no handler named "${name}" in this process` },
      };
    }
    const r = d.run;
    const ctx: HandlerContext = {
      run: {
        id: r.id,
        occurrenceId: r.occurrenceId,
        tenantId: r.tenantId,
        scheduleKey: r.scheduleKey,
        scheduledFor: r.scheduledFor,
        attempt: r.attempt,
        checks: r.checks,
        kind: r.kind,
      },
      payload: d.payload,
      signal: d.signal,
      schedules: this.tenantApi(r.tenantId),
    };
    try {
      const value = await entry.fn(ctx);
      if (isOutcome(value)) return value;
      return { type: 'ok', result: value === undefined ? undefined : (value as Json) };
    } catch (e) {
      return { type: 'retry', error: { code: 'ATTEMPT_FAILED', ...describeThrown(e) } };
    }
  }
}
