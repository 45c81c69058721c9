// Shared setup of the sandbox tests: a script driver on an in-memory SQLite key-value store, and `deliver`,
// which runs one source as a tenant's run and reports the outcome with the wall time it took. Timings are
// measured only to check that a limit held (an upper bound with a generous margin), never to wait.

import type { Json } from '../../../src/domain/json.js';
import type { Outcome } from '../../../src/domain/outcome.js';
import type { Run } from '../../../src/domain/run.js';
import type { Schedule } from '../../../src/domain/schedule.js';
import { runningRun } from '../../support/fixtures.js';
import { sqliteStore, type SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import {
  scriptTarget,
  type ScriptRunResult,
  type ScriptTargetDriver,
  type ScriptTargetOptions,
} from '../../../src/targets/script/script-target.js';

export const TENANT_A = 'tenant-a';
export const TENANT_B = 'tenant-b';
/** Slack allowed past a limit before a run must have ended (generous: CI machines are slow and shared). */
export const MARGIN_MS = 2000;

export interface Sandbox {
  driver: ScriptTargetDriver;
  store: SqliteStore;
  deliver(source: string, opts?: DeliverOptions): Promise<Delivered>;
  close(): Promise<void>;
}

export interface DeliverOptions {
  tenantId?: string;
  payload?: Json;
  timeoutMs?: number;
  memoryMb?: number;
  signal?: AbortSignal;
}

export interface Delivered {
  outcome: Outcome;
  ms: number;
}

let runs = 0;

export function fakeRun(tenantId: string): Run {
  runs++;
  const at = 1_767_225_600_000;
  return runningRun({
    id: String(runs),
    tenantId,
    scheduleId: '7',
    scheduleKey: 'nightly',
    occurrenceId: `7:${at + runs}`,
    scheduledFor: at,
    dueAt: at,
    createdAt: at,
    startedAt: at,
    leaseOwner: 'w',
    leaseExpiresAt: null,
  });
}

export async function sandbox(opts: Partial<ScriptTargetOptions> = {}): Promise<Sandbox> {
  const store = sqliteStore({ path: ':memory:' });
  await store.migrate();
  const driver = await scriptTarget({ kv: store, poolSize: 1, ...opts });
  return {
    driver,
    store,
    async deliver(source, o = {}) {
      const tenantId = o.tenantId ?? TENANT_A;
      const script: { source: string; timeoutMs?: number; memoryMb?: number } = { source };
      if (o.timeoutMs !== undefined) script.timeoutMs = o.timeoutMs;
      if (o.memoryMb !== undefined) script.memoryMb = o.memoryMb;
      const schedule = {
        tenantId,
        key: 'nightly',
        target: { script },
        payload: o.payload ?? null,
      } as Schedule;
      const started = performance.now();
      const outcome = await driver.deliver({
        run: fakeRun(tenantId),
        schedule,
        payload: o.payload ?? null,
        signal: o.signal ?? new AbortController().signal,
        startedAt: 1_767_225_600_500,
      });
      return { outcome, ms: performance.now() - started };
    },
    async close() {
      await driver.close();
      await store.close();
    },
  };
}

/** The value of an ok outcome (throws with the outcome when it is not ok, so failures read well). */
export function valueOf(outcome: Outcome): Json {
  if (outcome.type !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(outcome)}`);
  return (outcome.result as unknown as ScriptRunResult).value;
}

export function logsOf(outcome: Outcome): string[] {
  if (outcome.type === 'ok') return (outcome.result as unknown as ScriptRunResult).logs;
  if (outcome.type === 'checkAgain') return [];
  return (outcome.error as { details?: { logs: string[] } }).details?.logs ?? [];
}

/** The error code of a failed outcome, prefixed with how it is settled: `fail:CODE` or `retry:CODE`. */
export function endOf(outcome: Outcome): string {
  if (outcome.type === 'fail' || outcome.type === 'retry') return `${outcome.type}:${outcome.error.code}`;
  return outcome.type;
}

/** Runs a trivial script and checks it succeeds: the pool keeps serving after whatever ran before. */
export async function expectServing(s: Sandbox): Promise<void> {
  const { outcome } = await s.deliver('export default (ctx) => ctx.payload.n + 1', { payload: { n: 41 } });
  if (valueOf(outcome) !== 42)
    throw new Error(`the pool did not serve a normal script: ${JSON.stringify(outcome)}`);
}
