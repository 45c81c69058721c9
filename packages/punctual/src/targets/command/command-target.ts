// The command target: runs a program on the service's machine for each attempt (docs/commands.md). It owns
// who may use it (the tenants the operator allowed), the environment a command gets (a minimal one, never
// the service's own), the process group it runs in and its killing on timeout or abort, and the mapping of
// an exit to an Outcome with the tail of stdout and stderr. It never runs a shell unless the target says
// `shell: true`, and never lets a command outlive its attempt.

import { spawn } from 'node:child_process';
import { userInfo } from 'node:os';
import type { Json } from '../../domain/json.js';
import type { Outcome } from '../../domain/outcome.js';
import type { RunError } from '../../domain/run.js';
import { targetKind, type Target } from '../../domain/target.js';
import { PunctualError } from '../../errors.js';
import type { Delivery, TargetDriver } from '../target.js';
import type { CommandTarget } from './command-shape.js';
import { OutputTail } from './output-tail.js';

export interface CommandTargetOptions {
  /**
   * The tenants whose schedules may run commands: a list of tenant ids (`'*'`: every tenant) or a check.
   * Required: there is no default, so enabling commands always names who gets them.
   */
  tenants: readonly string[] | ((tenantId: string) => boolean);
  /** The environment every command starts from (the target's `env` goes over it). Default: minimalEnv(). */
  baseEnv?: Readonly<Record<string, string>>;
  /** Wall time of a command whose target sets no timeoutMs. Default 60 s. */
  defaultTimeoutMs?: number;
  /** After SIGTERM to the process group, how long before SIGKILL. Default 5 s. */
  killGraceMs?: number;
  /** Bytes of the end of stdout, and of stderr, kept on a run. Default 64 KiB each. */
  maxOutputBytes?: number;
  /**
   * Most characters of JSON a successful run's result may take (its output tails are cut from the front to
   * fit), so it stays under the scheduler's maxResultBytes. Default 60 000.
   */
  maxResultChars?: number;
  /** Starts a timer; returns its cancel. Default: setTimeout. Tests use it to fire the timeout at will. */
  timer?: (fn: () => void, ms: number) => () => void;
}

export interface CommandTargetDriver extends TargetDriver {
  readonly kind: 'command';
  /** Whether `tenantId` may use command targets. */
  allows(tenantId: string): boolean;
  /** Refuses (TARGET_DISABLED) a command target of a tenant not allowed, or of no tenant named. */
  validate(target: Target, payload: Json | null, tenantId?: string): void;
}

/** What a finished command leaves on its run. */
export interface CommandRunResult {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  /** Bytes of output before the kept tail, when some were dropped. */
  stdoutDroppedBytes?: number;
  stderrDroppedBytes?: number;
}

export const DEFAULT_COMMAND_TIMEOUT_MS = 60_000;
export const DEFAULT_COMMAND_OUTPUT_BYTES = 64 * 1024;
const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * The environment a command starts from: PATH (the usual system folders), HOME, USER and LOGNAME of the
 * service's user, SHELL=/bin/sh, LANG=C.UTF-8, and TZ when the service has one. Nothing else of the service's
 * environment (its database URL, tokens, PUNCTUAL_* settings) reaches a command.
 */
export function minimalEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  let user: { username: string; homedir: string } | undefined;
  try {
    user = userInfo();
  } catch {
    user = undefined;
  }
  const out: Record<string, string> = { PATH: DEFAULT_PATH, SHELL: '/bin/sh', LANG: 'C.UTF-8' };
  const home = user?.homedir || env.HOME;
  if (home) out.HOME = home;
  const name = user?.username || env.USER;
  if (name) {
    out.USER = name;
    out.LOGNAME = name;
  }
  if (env.TZ) out.TZ = env.TZ;
  return out;
}

/** Signals the process group `pid` leads; false when no process of it is left. */
function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false; // ESRCH: the group is gone (EPERM cannot happen: we started it as our own user)
  }
}

function positiveOption(name: string, v: number | undefined, dflt: number): number {
  if (v === undefined) return dflt;
  if (!Number.isSafeInteger(v) || v < 1) throw new TypeError(`${name} must be a whole number >= 1`);
  return v;
}

/** The run's own variables, set over the target's env: what a command needs to deduplicate its work. */
function runEnv(d: Delivery): Record<string, string> {
  const r = d.run;
  return {
    PUNCTUAL_TENANT: r.tenantId,
    PUNCTUAL_SCHEDULE_KEY: r.scheduleKey,
    PUNCTUAL_RUN_ID: r.id,
    PUNCTUAL_OCCURRENCE_ID: r.occurrenceId,
    PUNCTUAL_SCHEDULED_FOR: new Date(r.scheduledFor).toISOString(),
    PUNCTUAL_ATTEMPT: String(r.attempt),
  };
}

/** The result of a successful run, its output tails cut from the front until its JSON fits `maxChars`. */
export function fitResult(result: CommandRunResult, maxChars: number): CommandRunResult {
  const out = { ...result };
  for (let i = 0; i < 64 && JSON.stringify(out).length > maxChars; i++) {
    const key = out.stdout.length >= out.stderr.length ? 'stdout' : 'stderr';
    const cut = Math.max(1, Math.floor(out[key].length / 4));
    out[key] = out[key].slice(cut);
    const dropped = key === 'stdout' ? 'stdoutDroppedBytes' : 'stderrDroppedBytes';
    out[dropped] = (out[dropped] ?? 0) + Buffer.byteLength(result[key].slice(0, cut));
  }
  return out;
}

/**
 * Creates the command target. Nothing runs until a schedule of an allowed tenant names it; a schedule of
 * another tenant is refused with TARGET_DISABLED when saved (and its runs fail with it, if the operator
 * withdrew the tenant since).
 */
export function commandTarget(opts: CommandTargetOptions): CommandTargetDriver {
  const tenants = opts.tenants;
  if (typeof tenants !== 'function' && !Array.isArray(tenants)) {
    throw new TypeError('tenants must be a list of tenant ids (or "*") or a function');
  }
  const allows =
    typeof tenants === 'function'
      ? tenants
      : (tenantId: string) => tenants.includes('*') || tenants.includes(tenantId);
  const baseEnv = { ...(opts.baseEnv ?? minimalEnv()) };
  const defaultTimeoutMs = positiveOption(
    'defaultTimeoutMs',
    opts.defaultTimeoutMs,
    DEFAULT_COMMAND_TIMEOUT_MS,
  );
  const killGraceMs = positiveOption('killGraceMs', opts.killGraceMs, 5_000);
  const maxOutputBytes = positiveOption('maxOutputBytes', opts.maxOutputBytes, DEFAULT_COMMAND_OUTPUT_BYTES);
  const maxResultChars = positiveOption('maxResultChars', opts.maxResultChars, 60_000);
  const timer =
    opts.timer ??
    ((fn: () => void, ms: number) => {
      const t = setTimeout(fn, ms);
      return () => clearTimeout(t);
    });

  const disabled = (tenantId: string): PunctualError =>
    new PunctualError(
      'TARGET_DISABLED',
      `command targets are not enabled for tenant "${tenantId}" (the operator allows them per tenant)`,
      { field: 'target', kind: 'command', tenantId },
    );

  return {
    kind: 'command',
    allows: (tenantId) => allows(tenantId),
    validate(target: Target, _payload: Json | null, tenantId?: string): void {
      if (targetKind(target) !== 'command') return;
      if (tenantId === undefined || !allows(tenantId)) throw disabled(tenantId ?? '(none)');
    },
    async deliver(d: Delivery): Promise<Outcome> {
      if (!allows(d.run.tenantId)) {
        const e = disabled(d.run.tenantId);
        return { type: 'fail', error: { code: e.code, message: e.message } };
      }
      const cmd = (d.schedule.target as CommandTarget).command;
      return runCommand(cmd, {
        env: { ...baseEnv, ...cmd.env, ...runEnv(d) },
        timeoutMs: cmd.timeoutMs ?? defaultTimeoutMs,
        killGraceMs,
        maxOutputBytes,
        maxResultChars,
        signal: d.signal,
        timer,
      });
    },
  };
}

interface RunOptions {
  env: Record<string, string>;
  timeoutMs: number;
  killGraceMs: number;
  maxOutputBytes: number;
  maxResultChars: number;
  signal: AbortSignal;
  timer: (fn: () => void, ms: number) => () => void;
}

/** Runs one command to its end (or its group's killing) and maps how it ended to an Outcome. */
function runCommand(cmd: CommandTarget['command'], o: RunOptions): Promise<Outcome> {
  const [file, args] = cmd.shell ? ['/bin/sh', ['-c', cmd.argv[0]!]] : [cmd.argv[0]!, cmd.argv.slice(1)];
  const stdout = new OutputTail(o.maxOutputBytes);
  const stderr = new OutputTail(o.maxOutputBytes);
  return new Promise<Outcome>((resolve) => {
    const cancels: (() => void)[] = [];
    let ended: 'timeout' | 'aborted' | undefined;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let spawnError: Error | undefined;
    let terminating = false;
    let done = false;

    // Detached: the command leads a process group of its own, so the group (its children too) can be killed.
    const child = spawn(file, args, {
      cwd: cmd.cwd,
      env: o.env,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const pid = child.pid;

    const finish = (): void => {
      if (done) return;
      done = true;
      for (const cancel of cancels) cancel();
      o.signal.removeEventListener('abort', onAbort);
      resolve(outcomeOf(cmd, o, { ended, exit, spawnError, stdout, stderr }));
    };

    /**
     * SIGTERM to the whole group, SIGKILL after the grace; after one more grace, stop waiting for pipes that
     * a process which left the group (setsid) still holds.
     */
    const terminate = (): void => {
      if (terminating || pid === undefined) return;
      terminating = true;
      const alive = signalGroup(pid, 'SIGTERM');
      cancels.push(
        o.timer(() => {
          if (alive) signalGroup(pid, 'SIGKILL');
          cancels.push(
            o.timer(() => {
              child.stdout?.destroy();
              child.stderr?.destroy();
              if (exit !== undefined) finish();
            }, o.killGraceMs),
          );
        }, o.killGraceMs),
      );
    };

    const onAbort = (): void => {
      if (exit === undefined) ended ??= 'aborted';
      terminate();
    };

    child.stdout?.on('data', (c: Buffer) => stdout.push(c));
    child.stderr?.on('data', (c: Buffer) => stderr.push(c));
    // A command that does not read its stdin closes it early: that is not a failure.
    child.stdin?.on('error', () => {});
    child.stdin?.end(cmd.stdin ?? '');
    child.on('error', (e) => {
      spawnError ??= e;
      finish();
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // Nothing outlives its command: what is left of its process group is stopped too.
      terminate();
    });
    child.on('close', (code, signal) => {
      exit ??= { code, signal };
      finish();
    });

    if (pid === undefined) return; // the 'error' event follows
    if (o.signal.aborted) onAbort();
    else o.signal.addEventListener('abort', onAbort, { once: true });
    cancels.push(
      o.timer(() => {
        if (exit === undefined) ended ??= 'timeout';
        terminate();
      }, o.timeoutMs),
    );
  });
}

interface Ending {
  ended: 'timeout' | 'aborted' | undefined;
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  spawnError: Error | undefined;
  stdout: OutputTail;
  stderr: OutputTail;
}

function outcomeOf(cmd: CommandTarget['command'], o: RunOptions, e: Ending): Outcome {
  const result: CommandRunResult = {
    exitCode: e.exit?.code ?? null,
    signal: e.exit?.signal ?? null,
    stdout: e.stdout.text(),
    stderr: e.stderr.text(),
  };
  if (e.stdout.droppedBytes > 0) result.stdoutDroppedBytes = e.stdout.droppedBytes;
  if (e.stderr.droppedBytes > 0) result.stderrDroppedBytes = e.stderr.droppedBytes;
  const fail = (code: string, message: string): Outcome => {
    const error: RunError & { details: CommandRunResult } = { code, message, details: result };
    return { type: 'retry', error };
  };
  const name = cmd.shell ? '/bin/sh -c' : cmd.argv[0]!;
  if (e.spawnError) {
    const code = (e.spawnError as NodeJS.ErrnoException).code ?? e.spawnError.message;
    return fail('COMMAND_FAILED', `${name} could not start: ${code}`);
  }
  if (e.ended === 'timeout') {
    return fail(
      'ATTEMPT_TIMEOUT',
      `the command ran past its timeout of ${o.timeoutMs} ms: its process group was killed`,
    );
  }
  if (e.ended === 'aborted') {
    return fail(
      'ATTEMPT_TIMEOUT',
      'the attempt was aborted (timeout, cancel or shutdown): its process group was killed',
    );
  }
  if (result.exitCode === 0) {
    return { type: 'ok', result: fitResult(result, o.maxResultChars) as unknown as Json };
  }
  if (result.signal !== null) return fail('COMMAND_FAILED', `${name} was killed by ${result.signal}`);
  return fail('COMMAND_FAILED', `${name} exited with code ${result.exitCode}`);
}
