// How a run of a script ends when it does not return: the codes of the sandbox's limits (time, memory,
// stack, result), the host-call codes a script let through, and a throw of its own. Pure: it reads a
// description of what the guest threw and facts the run collected; it must never touch QuickJS itself.

import type { ScriptErrorCode } from './protocol.js';

export interface Ending {
  code: ScriptErrorCode;
  message: string;
  retry: boolean;
  stack?: string | undefined;
}

/** Thrown inside the run to end it with this code (decided by the host). */
export class Stop implements Ending {
  constructor(
    readonly code: ScriptErrorCode,
    readonly message: string,
    readonly retry: boolean,
    readonly stack?: string,
  ) {}
}

/** What the guest threw, as the bootstrap's `describe` saw it (every field cut to a bounded length). */
export interface Described {
  name?: string;
  message?: string;
  stack?: string;
  code?: string;
  /** For a thrown value that is not an object: its text. */
  value?: string;
}

/** Codes host calls reject with that an uncaught rejection keeps as the run's code. */
const HOST_CODES: readonly string[] = ['SCRIPT_HOST_CALL_REFUSED', 'KV_INVALID', 'KV_QUOTA_EXCEEDED'];
const OOM_MESSAGE = /^(out of memory|string too long)$/;

export const abortedEnding = (): Stop =>
  new Stop('SCRIPT_TIMEOUT', 'the script was stopped: its attempt was aborted (timeout or shutdown)', true);

export const timeoutEnding = (timeoutMs: number): Stop =>
  new Stop('SCRIPT_TIMEOUT', `the script ran past its time limit of ${timeoutMs} ms`, false);

/**
 * The ending for a value the guest threw before its deadline. Limits first (interrupt, out of memory,
 * stack), then codes of refused host calls it did not catch, then a module that does not load, and last
 * the script's own failure (retried by the schedule's retry policy).
 */
export function guestEnding(
  d: Described,
  facts: {
    phase: 'load' | 'run' | 'encode';
    issued: ReadonlySet<string>;
    memoryFull: () => boolean;
    timeoutMs: number;
  },
): Stop {
  const message = d.value !== undefined ? `the script threw ${d.value}` : (d.message ?? 'the script threw');
  if (d.name === 'InternalError' && message === 'interrupted') return timeoutEnding(facts.timeoutMs);
  if (d.name === 'InternalError' && OOM_MESSAGE.test(message)) {
    return new Stop('SCRIPT_OUT_OF_MEMORY', `the script ran out of memory (${message})`, false, d.stack);
  }
  if (d.message === 'stack overflow') {
    return new Stop('SCRIPT_OUT_OF_MEMORY', 'the script ran out of stack (stack overflow)', false, d.stack);
  }
  // With no memory left even for an error object, QuickJS throws null, or a value that cannot be described
  // (describing it needs memory too): a promise flood ends this way.
  const undescribed = d.name === undefined && d.message === undefined && d.value === undefined;
  if ((d.value === 'null' || undescribed) && facts.memoryFull()) {
    return new Stop('SCRIPT_OUT_OF_MEMORY', 'the script ran out of memory', false);
  }
  if (d.code !== undefined && HOST_CODES.includes(d.code) && facts.issued.has(d.code)) {
    const code = d.code as ScriptErrorCode;
    return new Stop(code, message, code !== 'SCRIPT_HOST_CALL_REFUSED', d.stack);
  }
  if (facts.phase === 'load' && (d.name === 'SyntaxError' || /^could not load module/.test(message))) {
    return new Stop('SCRIPT_SYNTAX_ERROR', `the script does not compile: ${message}`, false, d.stack);
  }
  const shown = d.name && d.name !== 'Error' ? `${d.name}: ${message}` : message;
  const what = facts.phase === 'encode' ? `the return value is not JSON: ${shown}` : shown;
  return new Stop('SCRIPT_FAILED', what, true, d.stack);
}

/** The ending when the host side of the sandbox failed (the module is then replaced). */
export function hostFailureEnding(e: unknown, aborted: boolean, late: boolean, timeoutMs: number): Stop {
  if (e instanceof RangeError && /call stack/i.test(e.message)) {
    return new Stop('SCRIPT_OUT_OF_MEMORY', 'the script ran out of stack (it recursed too deeply)', false);
  }
  if (aborted) return abortedEnding();
  if (late) return timeoutEnding(timeoutMs);
  const why = e instanceof Error ? e.message : String(e);
  return new Stop('SCRIPT_FAILED', `the sandbox failed while running the script: ${why}`, true);
}

/** Cuts a string to at most `max` UTF-8 bytes without splitting a character. */
export function cutUtf8(text: string, max: number): string {
  if (Buffer.byteLength(text, 'utf8') <= max) return text;
  const bytes = Buffer.from(text, 'utf8').subarray(0, max);
  return bytes.toString('utf8').replace(/\uFFFD$/, '');
}
