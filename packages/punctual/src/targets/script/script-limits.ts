// The limits of the script sandbox: defaults, the operator's maxima, and how one target's `timeoutMs` and
// `memoryMb` are checked against them and turned into the limits of a run. Pure: it must never start a
// thread, read a clock or perform I/O.

import type { ScriptTarget } from '../../domain/target.js';
import { PunctualError } from '../../errors.js';
import type { RunLimits } from './protocol.js';

export interface ScriptLimits {
  /** Wall time of a run when the target sets none. Default 1000 ms. */
  defaultTimeoutMs: number;
  /** Most wall time a target may ask for. Default 30 000 ms. */
  maxTimeoutMs: number;
  /** Memory of a run when the target sets none. Default 16 MiB. */
  defaultMemoryMb: number;
  /** Most memory a target may ask for. Default 64 MiB. */
  maxMemoryMb: number;
  /** Largest source, UTF-8 bytes. Default 64 KiB. */
  maxSourceBytes: number;
  /**
   * Largest return value, as JSON text. Default 32 KiB: with the logs (at most maxLogBytes) the result
   * envelope stays under the scheduler's default maxResultBytes (64 KiB).
   */
  maxResultBytes: number;
  /** Log lines kept per run (more are counted, not kept). Default 100. */
  maxLogLines: number;
  /** Longest log line kept; longer ones are cut. Default 1024 bytes. */
  maxLogLineBytes: number;
  /** All log lines of a run together. Default 16 KiB. */
  maxLogBytes: number;
  /** QuickJS stack of a run (deep recursion ends as out of memory). Default 256 KiB. */
  maxStackBytes: number;
  /** How long past its limit a run may take to stop before its thread is terminated. Default 1000 ms. */
  hardMarginMs: number;
  /** Host calls (kv and fetch) per run. Default 1000. */
  maxHostCalls: number;
  /** Host calls awaiting their answer at once. Default 32. */
  maxPendingHostCalls: number;
  /** `ctx.fetch` calls per run. Default 3. */
  maxFetchesPerRun: number;
  /** Time limit of one fetch (also bounded by what is left of the run). Default 5000 ms. */
  fetchTimeoutMs: number;
  /** Most of a fetched response body kept (the rest is cut, `truncated: true`). Default 256 KiB. */
  fetchMaxResponseBytes: number;
  /** Largest fetch request body. Default 64 KiB. */
  fetchMaxRequestBytes: number;
  /** Keys a tenant may hold in its key-value store. Default 1000. */
  kvMaxKeys: number;
  /** Largest key-value value, UTF-8 bytes of its JSON. Default 16 KiB. */
  kvMaxValueBytes: number;
}

export const DEFAULT_SCRIPT_LIMITS: Readonly<ScriptLimits> = Object.freeze({
  defaultTimeoutMs: 1000,
  maxTimeoutMs: 30_000,
  defaultMemoryMb: 16,
  maxMemoryMb: 64,
  maxSourceBytes: 64 * 1024,
  maxResultBytes: 32 * 1024,
  maxLogLines: 100,
  maxLogLineBytes: 1024,
  maxLogBytes: 16 * 1024,
  maxStackBytes: 256 * 1024,
  hardMarginMs: 1000,
  maxHostCalls: 1000,
  maxPendingHostCalls: 32,
  maxFetchesPerRun: 3,
  fetchTimeoutMs: 5000,
  fetchMaxResponseBytes: 256 * 1024,
  fetchMaxRequestBytes: 64 * 1024,
  kvMaxKeys: 1000,
  kvMaxValueBytes: 16 * 1024,
});

/** Overrides merged over the defaults; throws a TypeError for a value that is not a whole number >= 1. */
export function resolveScriptLimits(overrides: Partial<ScriptLimits> = {}): ScriptLimits {
  const out = { ...DEFAULT_SCRIPT_LIMITS, ...overrides };
  for (const [name, v] of Object.entries(out)) {
    if (!Number.isSafeInteger(v) || v < 1)
      throw new TypeError(`script limits: ${name} must be a whole number >= 1`);
  }
  if (out.defaultTimeoutMs > out.maxTimeoutMs)
    throw new TypeError('script limits: defaultTimeoutMs > maxTimeoutMs');
  if (out.defaultMemoryMb > out.maxMemoryMb)
    throw new TypeError('script limits: defaultMemoryMb > maxMemoryMb');
  return out;
}

function invalid(field: string, why: string): PunctualError {
  return new PunctualError('SCHEDULE_INVALID', `target.script.${field} ${why}`, {
    field: `target.script.${field}`,
  });
}

/**
 * Checks a script target against the operator's limits (SCRIPT_TOO_LARGE for the source, SCHEDULE_INVALID
 * naming the field for the time and memory asked) and returns the limits of its runs.
 */
export function runLimitsFor(target: ScriptTarget['script'], limits: ScriptLimits): RunLimits {
  const bytes = Buffer.byteLength(target.source, 'utf8');
  if (bytes > limits.maxSourceBytes) {
    throw new PunctualError(
      'SCRIPT_TOO_LARGE',
      `the script is ${bytes} bytes; the limit is ${limits.maxSourceBytes}`,
      { field: 'target.script.source', bytes, limit: limits.maxSourceBytes },
    );
  }
  const timeoutMs = target.timeoutMs ?? limits.defaultTimeoutMs;
  if (timeoutMs > limits.maxTimeoutMs) throw invalid('timeoutMs', `must be at most ${limits.maxTimeoutMs}`);
  const memoryMb = target.memoryMb ?? limits.defaultMemoryMb;
  if (memoryMb > limits.maxMemoryMb) throw invalid('memoryMb', `must be at most ${limits.maxMemoryMb}`);
  return {
    timeoutMs,
    memoryMb,
    maxStackBytes: limits.maxStackBytes,
    maxResultBytes: limits.maxResultBytes,
    maxLogLines: limits.maxLogLines,
    maxLogLineBytes: limits.maxLogLineBytes,
    maxLogBytes: limits.maxLogBytes,
    maxHostCalls: limits.maxHostCalls,
    maxPendingHostCalls: limits.maxPendingHostCalls,
    maxFetches: limits.maxFetchesPerRun,
    // A value or a request body, plus room for the key, the URL and the headers.
    maxArgsBytes: Math.max(limits.kvMaxValueBytes, limits.fetchMaxRequestBytes) + 16 * 1024,
  };
}
