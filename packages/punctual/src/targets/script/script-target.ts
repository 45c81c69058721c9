// The script target: tenant JavaScript run in QuickJS (WebAssembly) inside a pool of worker threads, with
// limits on time, memory, source, result, logs and host calls. It owns the save-time check (limits, then a
// compile on the main thread), the run's `ctx` facts, the host calls for the run's own tenant, and the
// mapping of how a run ended to an Outcome. It must never run tenant code in this thread or in `node:vm`.

import type { Json } from '../../domain/json.js';
import type { Outcome } from '../../domain/outcome.js';
import type { Run, RunError } from '../../domain/run.js';
import { parseTarget, targetKind, type ScriptTarget, type Target } from '../../domain/target.js';
import { isPunctualError } from '../../errors.js';
import type { KvStore } from '../../store/kv-store.js';
import { AddressGuard, parseCidrList } from '../address-guard.js';
import type { Delivery, TargetDriver } from '../target.js';
import type { ScriptResult } from './protocol.js';
import { ScriptCompiler } from './script-compile.js';
import { performHostCall } from './script-host.js';
import { ScriptPool, type ScriptPoolStats } from './script-pool.js';
import { resolveScriptLimits, runLimitsFor, type ScriptLimits } from './script-limits.js';
import { loadQuickJS } from './script-quickjs.js';

export interface ScriptTargetOptions {
  /** The tenant key-value store behind `ctx.kv` (either store implements KvStore). */
  kv: KvStore;
  /** The guard `ctx.fetch` goes through (share the webhook target's). Default: one built from allowPrivate. */
  guard?: AddressGuard;
  /** CIDR blocks fetch may reach although special; default PUNCTUAL_ALLOW_PRIVATE_TARGETS. Ignored with `guard`. */
  allowPrivate?: string;
  /** Sandbox threads. Default 2. */
  poolSize?: number;
  /** Limits over the defaults (DEFAULT_SCRIPT_LIMITS). */
  limits?: Partial<ScriptLimits>;
  /** Hosts a tenant's scripts may fetch from (`api.example.com`, `*.example.com`); undefined: any host. */
  allowHosts?: (tenantId: string) => readonly string[] | undefined;
  /** The clock of key-value `updatedAt`. Default Date.now. */
  now?: () => number;
}

/** What `ctx.run` holds. */
export interface ScriptRunInfo {
  id: string;
  occurrenceId: string;
  tenantId: string;
  scheduleKey: string;
  /** Epoch ms of the occurrence. */
  scheduledFor: number;
  /** Epoch ms the attempt started (engine clock). */
  startedAt: number;
  attempt: number;
  checks: number;
  kind: string;
}

/** The result a successful run keeps: the script's return value (null for none) and its log lines. */
export interface ScriptRunResult {
  value: Json;
  logs: string[];
}

export interface ScriptTargetDriver extends TargetDriver {
  readonly kind: 'script';
  readonly limits: Readonly<ScriptLimits>;
  validate(target: Target, payload: Json | null): void;
  /** Threads, busy threads, queued runs and replaced threads. */
  stats(): ScriptPoolStats;
  /** Stops the sandbox threads (the scheduler calls it from `close()`). */
  close(): Promise<void>;
}

/** Maps how a run ended to an Outcome (exported for documentation and tests). */
export function scriptOutcome(r: ScriptResult): Outcome {
  if (r.type === 'ok') {
    const result: ScriptRunResult = {
      value: r.json === undefined ? null : (JSON.parse(r.json) as Json),
      logs: r.logs,
    };
    return { type: 'ok', result: result as unknown as Json };
  }
  if (r.type === 'checkAgain') return { type: 'checkAgain', at: r.at };
  const error: RunError & { details?: { logs: string[] } } = { code: r.code, message: r.message };
  if (r.stack) error.stack = r.stack;
  if (r.logs.length > 0) error.details = { logs: r.logs };
  return r.retry ? { type: 'retry', error } : { type: 'fail', error };
}

/**
 * Creates the script target: loads QuickJS, compiles its WebAssembly once, prepares the save-time compiler
 * and starts the thread pool. Rejects when quickjs-emscripten is not installed or a thread cannot start.
 */
export async function scriptTarget(opts: ScriptTargetOptions): Promise<ScriptTargetDriver> {
  const limits = Object.freeze(resolveScriptLimits(opts.limits));
  const poolSize = opts.poolSize ?? 2;
  if (!Number.isSafeInteger(poolSize) || poolSize < 1)
    throw new TypeError('poolSize must be a whole number >= 1');
  const guard =
    opts.guard ??
    new AddressGuard(
      parseCidrList(opts.allowPrivate ?? process.env.PUNCTUAL_ALLOW_PRIVATE_TARGETS, 'allowPrivate'),
    );
  const now = opts.now ?? Date.now;
  const kvLimits = { maxKeys: limits.kvMaxKeys, maxValueBytes: limits.kvMaxValueBytes };

  const quickjs = await loadQuickJS();
  const compiler = await ScriptCompiler.create(quickjs);
  const pool = await ScriptPool.start({
    size: poolSize,
    hardMarginMs: limits.hardMarginMs,
    wasmModule: quickjs.wasmModule,
    warmMemoryMb: limits.defaultMemoryMb,
  });

  return {
    kind: 'script',
    limits,

    // Fair admission: a run is taken when a thread is free for it, or when its tenant has none queued yet
    // (script-pool.ts `admits`); otherwise it waits in the engine, holding no slot, behind its own tenant.
    saturated(run?: Run): boolean {
      return !pool.admits(run?.tenantId);
    },

    validate(target: Target): void {
      const { script } = parseTarget(target) as ScriptTarget;
      runLimitsFor(script, limits);
      compiler.check(script.source);
    },

    async deliver(d: Delivery): Promise<Outcome> {
      if (targetKind(d.schedule.target) !== 'script') {
        return { type: 'fail', error: { code: 'ATTEMPT_FAILED', message: 'not a script target' } };
      }
      const script = (d.schedule.target as ScriptTarget).script;
      let runLimits;
      try {
        runLimits = runLimitsFor(script, limits);
      } catch (e) {
        if (!isPunctualError(e)) throw e;
        return { type: 'fail', error: { code: e.code, message: e.message } };
      }
      const r = d.run;
      const info: ScriptRunInfo = {
        id: r.id,
        occurrenceId: r.occurrenceId,
        tenantId: r.tenantId,
        scheduleKey: r.scheduleKey,
        scheduledFor: r.scheduledFor,
        startedAt: d.startedAt,
        attempt: r.attempt,
        checks: r.checks,
        kind: r.kind,
      };
      const ended = new AbortController();
      const signal = AbortSignal.any([d.signal, ended.signal]);
      const host = {
        tenantId: r.tenantId,
        kv: opts.kv,
        kvLimits,
        guard,
        allowHosts: opts.allowHosts?.(r.tenantId),
        limits,
        timeoutMs: runLimits.timeoutMs,
        signal,
        now,
      };
      try {
        const result = await pool.run({
          tenantId: r.tenantId,
          source: script.source,
          payloadJson: JSON.stringify(d.payload ?? null),
          runJson: JSON.stringify(info),
          limits: runLimits,
          onCall: (op, argsJson) => performHostCall(host, op, argsJson),
          signal: d.signal,
        });
        return scriptOutcome(result);
      } finally {
        ended.abort(); // fetches still in flight for this run stop here
      }
    },

    stats: () => pool.stats,
    close: () => pool.close(),
  };
}
