// Retry with backoff, permanent failure, attempt timeouts and result caps, as the worker applies them.

import { afterEach, describe, expect, it } from 'vitest';
import { fail } from '../../src/targets/outcomes.js';
import { harness, type Harness } from '../support/harness.js';

let h: Harness;
afterEach(async () => h?.close());

describe('retry and timeout', () => {
  it('retries with exponential backoff until an attempt succeeds, keeping every attempt', async () => {
    h = await harness();
    let calls = 0;
    const startedAt: number[] = [];
    h.s.handle('flaky', () => {
      startedAt.push(h.clock.now());
      if (++calls < 3) throw new Error(`boom ${calls}`);
      return 'third time';
    });
    await h.s.put({
      key: 'flaky',
      spec: '@in 1s',
      target: { handler: 'flaky' },
      policies: {
        retry: { maxAttempts: 5, backoff: 'exponential', delayMs: 1000, maxDelayMs: 60_000, jitter: false },
      },
    });
    await h.clock.advance(60_000);
    expect(calls).toBe(3);
    expect(startedAt[1]! - startedAt[0]!).toBe(1000);
    expect(startedAt[2]! - startedAt[1]!).toBe(2000);
    expect(h.of('run:retrying')).toHaveLength(2);
    const run = h.of('run:succeeded')[0]!.run;
    const detail = await h.s.getRun(run.id);
    expect(detail!.run.attempt).toBe(3);
    expect(detail!.attempts.map((a) => a.outcome)).toEqual(['retry', 'retry', 'succeeded']);
    expect(detail!.attempts[0]!.error?.message).toBe('boom 1');
  });

  it('ends dead when attempts are used up, with the last error', async () => {
    h = await harness();
    h.s.handle('broken', () => {
      throw new Error('always');
    });
    await h.s.put({
      key: 'broken',
      spec: '@in 1s',
      target: { handler: 'broken' },
      policies: { retry: { maxAttempts: 2, backoff: 'fixed', delayMs: 500, jitter: false } },
    });
    await h.clock.advance(10_000);
    const dead = h.of('run:dead');
    expect(dead).toHaveLength(1);
    expect(dead[0]!.run.error?.message).toBe('always');
    expect(dead[0]!.run.attempt).toBe(2);
  });

  it('a permanent failure is dead at once', async () => {
    h = await harness();
    let calls = 0;
    h.s.handle('refuse', () => {
      calls++;
      return fail(new Error('bad address'));
    });
    await h.s.put({ key: 'refuse', spec: '@in 1s', target: { handler: 'refuse' } });
    await h.clock.advance(60_000);
    expect(calls).toBe(1);
    expect(h.of('run:dead')[0]!.run.error?.message).toBe('bad address');
  });

  it('aborts an attempt at its timeout and settles it as ATTEMPT_TIMEOUT, even if the handler ignores the signal', async () => {
    h = await harness();
    let aborted = false;
    h.s.handle('hang', (ctx) => {
      ctx.signal.addEventListener('abort', () => (aborted = true));
      return new Promise(() => {}); // never settles, ignores the signal
    });
    await h.s.put({
      key: 'hang',
      spec: '@in 1s',
      target: { handler: 'hang' },
      policies: { timeoutMs: 5000, retry: { maxAttempts: 1 } },
    });
    await h.clock.advance(1000);
    expect(h.of('run:started')).toHaveLength(1);
    await h.clock.advance(5000);
    expect(aborted).toBe(true);
    const dead = h.of('run:dead');
    expect(dead).toHaveLength(1);
    expect(dead[0]!.run.error?.code).toBe('ATTEMPT_TIMEOUT');
    const detail = await h.s.getRun(dead[0]!.run.id);
    expect(detail!.attempts[0]!.outcome).toBe('timeout');
  });

  it('replaces a result over the size cap by a marker', async () => {
    h = await harness({ maxResultBytes: 100 });
    h.s.handle('big', () => 'x'.repeat(1000));
    await h.s.put({ key: 'big', spec: '@in 1s', target: { handler: 'big' } });
    await h.clock.advance(2000);
    expect(h.of('run:succeeded')[0]!.run.result).toEqual({
      error: 'RESULT_TOO_LARGE',
      bytes: 1002,
      limit: 100,
    });
  });
});
