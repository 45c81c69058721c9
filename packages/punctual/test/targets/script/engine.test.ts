// Script targets end to end through the engine (TestClock; waits on events, never sleeps): the result and
// logs kept on the run, a throw retried by the schedule's retry policy, a limit ending the run at once, the
// check-again outcome, the save-time compile, ctx.kv scoped to the schedule's tenant, and close().

import { afterEach, describe, expect, it } from 'vitest';
import { sqliteStore, type SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { scriptTarget, type ScriptTargetDriver } from '../../../src/targets/script/script-target.js';
import { harness, type Harness } from '../../support/harness.js';
import { fakeRun } from './support.js';

let h: Harness | undefined;
let driver: ScriptTargetDriver;
let store: SqliteStore;

async function start(): Promise<Harness> {
  store = sqliteStore({ path: ':memory:' });
  driver = await scriptTarget({ kv: store, poolSize: 2 });
  h = await harness({ store, targets: [driver] });
  return h;
}

afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('script target through the engine', () => {
  it('runs a script on its schedule and keeps its value and logs as the run’s result', async () => {
    const h = await start();
    const succeeded = h.waitFor('run:succeeded');
    await h.s.put({
      key: 'report',
      spec: '@in 1s',
      target: {
        script: {
          source:
            'export default (ctx) => { ctx.log("sum", ctx.payload); return ctx.payload.a + ctx.payload.b; }',
        },
      },
      payload: { a: 2, b: 3 },
    });
    await h.clock.advance(1000);
    const { run } = await succeeded;
    expect(run.result).toEqual({ value: 5, logs: ['sum {"a":2,"b":3}'] });
    const detail = await h.s.getRun(run.id);
    expect(detail!.attempts.map((a) => a.outcome)).toEqual(['succeeded']);
  });

  it('retries a throwing script by the retry policy, keeping message, stack and logs on each attempt', async () => {
    const h = await start();
    const retrying = h.waitFor('run:retrying');
    const dead = h.waitFor('run:dead');
    await h.s.put({
      key: 'flaky',
      spec: '@in 1s',
      target: {
        script: {
          source: 'export default (ctx) => { ctx.log("try", ctx.run.attempt); throw new Error("nope"); }',
        },
      },
      policies: { retry: { maxAttempts: 2, backoff: 'fixed', delayMs: 500, jitter: false } },
    });
    await h.clock.advance(1000);
    await retrying;
    await h.clock.advance(500);
    const { run } = await dead;
    expect(run.error).toMatchObject({ code: 'SCRIPT_FAILED', message: 'nope', details: { logs: ['try 2'] } });
    const detail = await h.s.getRun(run.id);
    expect(detail!.attempts.map((a) => [a.outcome, a.error?.code])).toEqual([
      ['retry', 'SCRIPT_FAILED'],
      ['failed', 'SCRIPT_FAILED'],
    ]);
    expect(detail!.attempts[0]!.error?.stack).toMatch(/script\.js:1:/);
  });

  it('ends a run that hits a limit at once, whatever attempts remain, and keeps serving', async () => {
    const h = await start();
    const dead = h.waitFor('run:dead');
    await h.s.put({
      key: 'loop',
      spec: '@in 1s',
      target: { script: { source: 'export default () => { for (;;) {} }', timeoutMs: 200 } },
      policies: { retry: { maxAttempts: 5, backoff: 'fixed', delayMs: 500, jitter: false } },
    });
    await h.clock.advance(1000);
    const { run } = await dead;
    expect(run.error?.code).toBe('SCRIPT_TIMEOUT');
    expect(run.attempt).toBe(1);
    const ok = h.waitFor('run:succeeded');
    await h.s.put({
      key: 'after',
      spec: '@in 1s',
      target: { script: { source: 'export default () => "fine"' } },
    });
    await h.clock.advance(1000);
    expect((await ok).run.result).toEqual({ value: 'fine', logs: [] });
  });

  it('asks to be checked again with ctx.checkAgain', async () => {
    const h = await start();
    const again = h.waitFor('run:checkAgain');
    await h.s.put({
      key: 'shipped',
      spec: '@in 1s',
      target: { script: { source: 'export default (ctx) => ctx.checkAgain(ctx.run.startedAt + 3600000)' } },
    });
    await h.clock.advance(1000);
    const { run } = await again;
    expect(run.dueAt).toBe(h.clock.now() + 3_600_000);
    expect(run.checks).toBe(1);
  });

  it('refuses to save a script that does not compile, naming its line and column', async () => {
    const h = await start();
    await expect(
      h.s.put({
        key: 'bad',
        spec: '@in 1s',
        target: { script: { source: 'export default () => {\n  return );\n}' } },
      }),
    ).rejects.toMatchObject({
      code: 'SCRIPT_SYNTAX_ERROR',
      details: { field: 'target.script.source', line: 2, column: 10 },
    });
    expect(await h.s.get('bad')).toBeUndefined();
  });

  it('scopes ctx.kv to the schedule’s tenant', async () => {
    const h = await start();
    const succeeded = h.waitFor('run:succeeded');
    await h.s.tenant('acme').put({
      key: 'count',
      spec: '@in 1s',
      target: {
        script: {
          source:
            'export default async (ctx) => { const n = (await ctx.kv.get("runs")) ?? 0; await ctx.kv.set("runs", n + 1); return n + 1; }',
        },
      },
    });
    await h.clock.advance(1000);
    expect((await succeeded).run.result).toEqual({ value: 1, logs: [] });
    expect((await store.kvGet('acme', 'runs'))?.value).toBe(1);
    expect(await store.kvGet(h.s.tenantId, 'runs')).toBeUndefined();
  });

  it('closes the sandbox threads when the scheduler closes', async () => {
    const h = await start();
    await h.close();
    const outcome = await driver.deliver({
      run: fakeRun('acme'),
      schedule: { target: { script: { source: 'export default () => 1' } } } as never,
      payload: null,
      signal: new AbortController().signal,
      startedAt: 0,
    });
    expect(outcome).toMatchObject({
      type: 'retry',
      error: { code: 'SCRIPT_FAILED', message: 'the script pool is closed' },
    });
  });
});
