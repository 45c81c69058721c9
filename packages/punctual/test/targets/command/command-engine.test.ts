// Command targets through the scheduler (TestClock, in-memory SQLite; waits on events): a schedule is refused
// with TARGET_DISABLED while no command driver is enabled or its tenant is not allowed (nothing is saved),
// and a run of an allowed tenant's command succeeds with its output kept as the result, or fails with it.

import { afterEach, describe, expect, it } from 'vitest';
import { commandTarget } from '../../../src/targets/command/command-target.js';
import { harness, type Harness } from '../../support/harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const schedule = {
  key: 'hello',
  spec: '@in 1s',
  target: { command: { argv: ['/bin/echo', 'hello'] } },
};

describe('command target through the engine', () => {
  it('refuses a command schedule with TARGET_DISABLED when the driver is not enabled', async () => {
    h = await harness();
    await expect(h.s.put(schedule)).rejects.toMatchObject({
      code: 'TARGET_DISABLED',
      details: { field: 'target', kind: 'command' },
    });
    expect(await h.s.get('hello')).toBeUndefined();
  });

  it("refuses it for a tenant the operator did not allow, and runs an allowed tenant's command", async () => {
    h = await harness({ targets: [commandTarget({ tenants: ['default'] })] });
    await expect(h.s.tenant('acme').put(schedule)).rejects.toMatchObject({ code: 'TARGET_DISABLED' });
    expect(await h.s.tenant('acme').get('hello')).toBeUndefined();

    const succeeded = h.waitFor('run:succeeded');
    await h.s.put(schedule);
    await h.clock.advance(1000);
    const { run } = await succeeded;
    expect(run.result).toEqual({ exitCode: 0, signal: null, stdout: 'hello\n', stderr: '' });
  });

  it('retries a failing command by the retry policy and keeps its exit and output on the run', async () => {
    h = await harness({ targets: [commandTarget({ tenants: ['*'] })] });
    const dead = h.waitFor('run:dead');
    await h.s.put({
      key: 'fails',
      spec: '@in 1s',
      target: { command: { argv: ['echo oops >&2; exit 3'], shell: true } },
      policies: { retry: { maxAttempts: 1 } },
    });
    await h.clock.advance(1000);
    const { run } = await dead;
    expect(run.error).toMatchObject({
      code: 'COMMAND_FAILED',
      message: '/bin/sh -c exited with code 3',
      details: { exitCode: 3, stderr: 'oops\n', stdout: '' },
    });
  });
});
