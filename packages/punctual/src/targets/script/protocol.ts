// The messages between the script host (main thread: the pool and the driver) and a sandbox thread, and the
// per-run limits the host hands a thread. Only plain, structured-clone data crosses; the thread never
// receives a tenant id it could act on, and it must never be trusted to choose one: the host fixes it.

import type { WasmModule } from './script-quickjs.js';
/** Host calls a script may make; each is performed on the main thread for the run's own tenant. */
export const HOST_OPS = ['kv.get', 'kv.set', 'kv.delete', 'kv.list', 'fetch'] as const;
export type HostOp = (typeof HOST_OPS)[number];

/** Error codes a run of a script can end with (all are in ERROR_CODES). */
export type ScriptErrorCode =
  | 'SCRIPT_TIMEOUT'
  | 'SCRIPT_OUT_OF_MEMORY'
  | 'SCRIPT_RESULT_TOO_LARGE'
  | 'SCRIPT_HOST_CALL_REFUSED'
  | 'SCRIPT_FAILED'
  | 'SCRIPT_SYNTAX_ERROR'
  | 'KV_INVALID'
  | 'KV_QUOTA_EXCEEDED';

/** The limits of one run, resolved by the host from the operator's limits and the target. */
export interface RunLimits {
  timeoutMs: number;
  memoryMb: number;
  maxStackBytes: number;
  maxResultBytes: number;
  maxLogLines: number;
  maxLogLineBytes: number;
  maxLogBytes: number;
  maxHostCalls: number;
  maxPendingHostCalls: number;
  maxFetches: number;
  /** Largest JSON text of one host call's arguments. */
  maxArgsBytes: number;
}

export interface RunMessage {
  type: 'run';
  jobId: number;
  source: string;
  /** The payload as JSON text. */
  payloadJson: string;
  /** `ctx.run` as JSON text. */
  runJson: string;
  limits: RunLimits;
}

export type CallReply =
  { ok: true; json?: string | undefined } | { ok: false; code: string; message: string };

export type ReplyMessage = { type: 'reply'; jobId: number; callId: number } & CallReply;

export interface AbortMessage {
  type: 'abort';
  jobId: number;
}

export type HostToThread = RunMessage | ReplyMessage | AbortMessage;

export interface CallMessage {
  type: 'call';
  jobId: number;
  callId: number;
  op: HostOp;
  /** The call's arguments as a JSON array (at most RunLimits.maxArgsBytes). */
  argsJson: string;
}

/** How a run ended, as the thread saw it. Logs are kept in every case. */
export type ScriptResult = (
  | {
      type: 'ok';
      /** The return value as JSON text; undefined when the script returned nothing. */ json?: string;
    }
  | { type: 'checkAgain'; at: number }
  | { type: 'error'; code: ScriptErrorCode; message: string; stack?: string; retry: boolean }
) & { logs: string[] };

export interface DoneMessage {
  type: 'done';
  jobId: number;
  result: ScriptResult;
}

export type ThreadToHost =
  { type: 'ready' } | { type: 'failed'; message: string } | CallMessage | DoneMessage;

/** What a thread is started with. */
export interface ThreadData {
  /** The compiled QuickJS WebAssembly module, shared by every thread (compiled once). */
  wasmModule: WasmModule | undefined;
  /** Int32[0] holds the id of a job the host wants stopped: the interrupt handler reads it. */
  abortFlag: SharedArrayBuffer;
  /** The memory limit most runs use: the thread prepares a module for it before it reports ready. */
  warmMemoryMb: number;
}
