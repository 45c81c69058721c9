// The command driver with real processes (targets/command/command-target.ts): output and exit code kept on
// the run, stdin, the minimal environment (no secret of the service's), a spawn failure, the last 64 KiB of a
// long output, and a timeout or abort that kills the whole process group: the shell AND the child it started
// are gone afterwards. The timeout is fired by the test once the processes have written their pid files
// (watched for, never slept on).

import { mkdtempSync, readFileSync, rmSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Outcome } from '../../../src/domain/outcome.js';
import type { Schedule } from '../../../src/domain/schedule.js';
import {
  commandTarget,
  type CommandRunResult,
  type CommandTargetOptions,
} from '../../../src/targets/command/command-target.js';
import type { CommandTarget } from '../../../src/targets/command/command-shape.js';
import { fakeRun } from '../script/support.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'punctual-command-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A timeout the test fires by hand: the driver's timer for `ms === TIMEOUT_MS`; other timers are real. */
const TIMEOUT_MS = 12_345;
function manualTimeout(): { timer: CommandTargetOptions['timer']; fire: () => void } {
  let pending: (() => void) | undefined;
  return {
    timer: (fn, ms) => {
      if (ms === TIMEOUT_MS) {
        pending = fn;
        return () => (pending = undefined);
      }
      const t = setTimeout(fn, ms);
      return () => clearTimeout(t);
    },
    fire: () => {
      if (!pending) throw new Error('no timeout pending');
      pending();
    },
  };
}

function deliver(
  command: CommandTarget['command'],
  opts: Partial<CommandTargetOptions> = {},
  signal = new AbortController().signal,
): Promise<Outcome> {
  const driver = commandTarget({ tenants: ['tenant-a'], ...opts });
  return driver.deliver({
    run: fakeRun('tenant-a'),
    schedule: { tenantId: 'tenant-a', key: 'nightly', target: { command } } as Schedule,
    payload: null,
    signal,
    startedAt: 1_767_225_600_500,
  });
}

function resultOf(o: Outcome): CommandRunResult {
  if (o.type === 'ok') return o.result as unknown as CommandRunResult;
  if (o.type === 'retry' || o.type === 'fail')
    return (o.error as unknown as { details: CommandRunResult }).details;
  throw new Error(`no result in ${JSON.stringify(o)}`);
}

/** Resolves with the pid written to `name` in the test's folder, once it is there (watching, not polling). */
function pidFile(name: string): Promise<number> {
  const path = join(dir, name);
  return new Promise((resolve, reject) => {
    const read = (): boolean => {
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch {
        return false;
      }
      if (!/^\d+\n$/.test(text)) return false;
      watcher.close();
      resolve(Number(text));
      return true;
    };
    const watcher = watch(dir, () => void read());
    watcher.on('error', reject);
    read();
  });
}

/** True when no process has this pid, or it is dead and only waits for its parent to collect it (zombie). */
/**
 * Whether `pid` is gone once the kernel has had time to end it: a SIGKILL sent to a group is delivered
 * asynchronously, so a loaded machine can show the process alive for a moment after the driver answered.
 * Polls for at most 5 s of wall time (waiting on the kernel, not on work of the code under test).
 */
async function goneSoon(pid: number): Promise<boolean> {
  for (const until = performance.now() + 5_000; performance.now() < until;) {
    if (gone(pid)) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return gone(pid);
}

function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
  try {
    return /^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

describe('command target driver', () => {
  it('records a non-zero exit as a failure with its code, stdout and stderr', async () => {
    const o = await deliver({
      argv: ['/bin/sh', '-c', 'echo to stdout; echo to stderr >&2; exit 3'],
    });
    expect(o.type).toBe('retry');
    if (o.type !== 'retry') return;
    expect(o.error.code).toBe('COMMAND_FAILED');
    expect(o.error.message).toBe('/bin/sh exited with code 3');
    expect(resultOf(o)).toEqual({ exitCode: 3, signal: null, stdout: 'to stdout\n', stderr: 'to stderr\n' });
  });

  it('succeeds on exit 0, keeping the output as the result', async () => {
    const o = await deliver({ argv: ['/bin/echo', 'hello', 'world'] });
    expect(o).toEqual({
      type: 'ok',
      result: { exitCode: 0, signal: null, stdout: 'hello world\n', stderr: '' },
    });
  });

  it('runs a command line through /bin/sh -c only when shell is true', async () => {
    const line = 'echo $((6 * 7)) | tr 4 X';
    expect(resultOf(await deliver({ argv: [line], shell: true })).stdout).toBe('X2\n');
    // Without shell, the same text is a program path that does not exist: nothing interprets it.
    const o = await deliver({ argv: [`/${line}`] });
    expect(o.type === 'retry' && o.error.message).toMatch(/could not start: ENOENT$/);
  });

  it('writes stdin to the command and closes it', async () => {
    const o = await deliver({ argv: ['/bin/cat'], stdin: 'line one\nline two %\n' });
    expect(resultOf(o).stdout).toBe('line one\nline two %\n');
  });

  it("gives a minimal environment, the target's variables and the run's, never the service's own", async () => {
    process.env.PUNCTUAL_DATABASE_URL = 'postgres://user:secret-password@db/punctual';
    try {
      const o = await deliver({ argv: ['/usr/bin/env'], env: { REPORT: 'daily' }, cwd: dir });
      const vars = Object.fromEntries(
        resultOf(o)
          .stdout.trim()
          .split('\n')
          .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
      );
      expect(resultOf(o).stdout).not.toContain('secret-password');
      expect(vars.PUNCTUAL_DATABASE_URL).toBeUndefined();
      expect(vars).toMatchObject({
        REPORT: 'daily',
        PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
        LANG: 'C.UTF-8',
        PUNCTUAL_TENANT: 'tenant-a',
        PUNCTUAL_SCHEDULE_KEY: 'nightly',
        PUNCTUAL_SCHEDULED_FOR: '2026-01-01T00:00:00.000Z',
        PUNCTUAL_ATTEMPT: '1',
      });
      expect(Object.keys(vars).sort()).toEqual(
        expect.arrayContaining(['PUNCTUAL_RUN_ID', 'PUNCTUAL_OCCURRENCE_ID']),
      );
    } finally {
      delete process.env.PUNCTUAL_DATABASE_URL;
    }
  });

  it('keeps the last 64 KiB of a long output and counts the bytes before', async () => {
    const o = await deliver({
      argv: ['head -c 200000 /dev/zero | tr "\\0" a; printf END; exit 1'],
      shell: true,
    });
    const r = resultOf(o);
    expect(r.stdout.length).toBe(65_536);
    expect(r.stdout.endsWith('aaaEND')).toBe(true);
    expect(r.stdoutDroppedBytes).toBe(200_003 - 65_536);
  });

  it('cuts a successful run’s output from the front to fit the result size', async () => {
    const o = await deliver(
      { argv: ['head -c 100000 /dev/zero | tr "\\0" b; printf END'], shell: true },
      { maxResultChars: 10_000 },
    );
    const r = resultOf(o);
    expect(o.type).toBe('ok');
    expect(JSON.stringify(r).length).toBeLessThanOrEqual(10_000);
    expect(r.stdout.endsWith('bEND')).toBe(true);
    expect(r.stdoutDroppedBytes).toBe(100_003 - r.stdout.length);
  });

  it('kills the whole process group on timeout: the command and the child it started are gone', async () => {
    const t = manualTimeout();
    const child = pidFile('child.pid');
    const grandchild = pidFile('grandchild.pid');
    const delivered = deliver(
      {
        // `started` goes out before the last pid file, which the test waits for before the timeout fires.
        argv: [
          `echo $$ > ${dir}/child.pid; sleep 1000 & echo started; echo $! > ${dir}/grandchild.pid; wait`,
        ],
        shell: true,
        timeoutMs: TIMEOUT_MS,
      },
      { timer: t.timer },
    );
    const pids = [await child, await grandchild];
    for (const pid of pids) expect(gone(pid)).toBe(false);
    t.fire();
    const o = await delivered;
    expect(o.type).toBe('retry');
    if (o.type !== 'retry') return;
    expect(o.error.code).toBe('ATTEMPT_TIMEOUT');
    expect(o.error.message).toContain(`timeout of ${TIMEOUT_MS} ms`);
    expect(resultOf(o).stdout).toBe('started\n');
    for (const pid of pids) expect(await goneSoon(pid), `pid ${pid}`).toBe(true);
  });

  it('kills the group when the attempt is aborted', async () => {
    const abort = new AbortController();
    const grandchild = pidFile('grandchild.pid');
    const delivered = deliver(
      { argv: [`sleep 1000 & echo $! > ${dir}/grandchild.pid; wait`], shell: true },
      {},
      abort.signal,
    );
    const pid = await grandchild;
    abort.abort();
    const o = await delivered;
    expect(o.type === 'retry' && o.error.code).toBe('ATTEMPT_TIMEOUT');
    expect(await goneSoon(pid)).toBe(true);
  });

  it('stops what a command left running in its group when it exits', async () => {
    const o = await deliver({
      argv: [`sleep 1000 & echo $! > ${dir}/grandchild.pid; echo done`],
      shell: true,
    });
    expect(resultOf(o)).toMatchObject({ exitCode: 0, stdout: 'done\n' });
    expect(await goneSoon(Number(readFileSync(join(dir, 'grandchild.pid'), 'utf8')))).toBe(true);
  });

  it('fails the runs of a tenant the operator does not allow, and refuses its schedules', async () => {
    const driver = commandTarget({ tenants: ['ops'] });
    const o = await driver.deliver({
      run: fakeRun('tenant-a'),
      schedule: { tenantId: 'tenant-a', key: 'k', target: { command: { argv: ['/bin/true'] } } } as Schedule,
      payload: null,
      signal: new AbortController().signal,
      startedAt: 0,
    });
    expect(o.type === 'fail' && o.error.code).toBe('TARGET_DISABLED');
    expect(() => driver.validate({ command: { argv: ['/bin/true'] } }, null, 'tenant-a')).toThrow(
      expect.objectContaining({ code: 'TARGET_DISABLED' }),
    );
    expect(() => driver.validate({ command: { argv: ['/bin/true'] } }, null, 'ops')).not.toThrow();
    expect(commandTarget({ tenants: ['*'] }).allows('anyone')).toBe(true);
  });
});
