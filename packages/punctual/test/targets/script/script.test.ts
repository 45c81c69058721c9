// The script target's contract: the save-time check (limits, then a compile with line and column), the
// outcome of a return, a throw and ctx.checkAgain, the logs kept on the attempt, and the host-call limits.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTarget } from '../../../src/domain/target.js';
import { scriptOutcome } from '../../../src/targets/script/script-target.js';
import { endOf, expectServing, logsOf, sandbox, valueOf, type Sandbox } from './support.js';

function thrown(f: () => unknown): { code?: string; message?: string; details?: Record<string, unknown> } {
  try {
    f();
  } catch (e) {
    return e as { code?: string; message?: string; details?: Record<string, unknown> };
  }
  throw new Error('expected a throw');
}

describe('script target', () => {
  let s: Sandbox;
  beforeAll(async () => {
    s = await sandbox({ poolSize: 2 });
  });
  afterAll(() => s.close());
  const validate = (script: Record<string, unknown>): void => s.driver.validate({ script } as never, null);

  describe('save-time check', () => {
    it('reports a syntax error with its line and column', () => {
      const e = thrown(() => validate({ source: 'export default (ctx) => {\n  let x = ;\n};' }));
      expect(e).toMatchObject({
        code: 'SCRIPT_SYNTAX_ERROR',
        details: { field: 'target.script.source', line: 2, column: 11 },
      });
      expect(e.message).toMatch(/unexpected token.*\(line 2, column 11\)/);
      const open = thrown(() => validate({ source: 'export default () => {\n  return 1;\n' }));
      expect(open).toMatchObject({ code: 'SCRIPT_SYNTAX_ERROR', details: { line: 3 } });
      expect(
        thrown(() => validate({ source: 'const a = 1;\nconst a = 2;\nexport default 1' })),
      ).toMatchObject({
        code: 'SCRIPT_SYNTAX_ERROR',
        details: { line: 2 },
      });
    });

    it('accepts a valid module, async functions, classes and top-level await', () => {
      validate({ source: 'export default (ctx) => ctx.payload' });
      validate({
        source:
          'class A { #x = 1; get x() { return this.#x; } }\nawait null;\nexport default async () => new A().x ?? 0n',
      });
    });

    it('refuses what no run could do: imports, nesting too deep, a source over the limit', async () => {
      expect(thrown(() => validate({ source: 'import x from "y";\nexport default x' })).message).toMatch(
        /cannot import modules/,
      );
      for (const deep of ['('.repeat(30_000) + ')'.repeat(30_000), '['.repeat(30_000)]) {
        const e = thrown(() => validate({ source: `export default ${deep}` }));
        expect(e).toMatchObject({ code: 'SCRIPT_SYNTAX_ERROR' });
        expect(e.message).toMatch(/nested too deeply/);
      }
      validate({ source: 'export default () => 1' }); // the compiler still works (a spare replaced it if needed)
      const big = thrown(() => validate({ source: `export default () => 1;\n//${'x'.repeat(70 * 1024)}` }));
      expect(big).toMatchObject({ code: 'SCRIPT_TOO_LARGE', details: { field: 'target.script.source' } });
    });

    it('never runs the source while checking it, however the source ends', () => {
      const started = performance.now();
      validate({ source: 'for (;;) {}\nexport default () => 1' });
      validate({ source: '"a".repeat(2000000).indexOf("a".repeat(5000) + "b");\nexport default 1' });
      expect(performance.now() - started).toBeLessThan(1000); // running either would take seconds
      // Endings that would swallow what the check appends are syntax errors, at the end of the source.
      for (const ending of ['x = "abc\\', "x = 'abc\\", 'x = `abc', 'x = `${', '/* open', 'f(', 'x =']) {
        const source = `export default 1;\n${ending}`;
        expect(
          thrown(() => validate({ source })),
          ending,
        ).toMatchObject({
          code: 'SCRIPT_SYNTAX_ERROR',
          details: { line: 2 },
        });
      }
    });

    it('checks the time and memory asked against the operator maxima, and the shape in the domain', () => {
      expect(thrown(() => validate({ source: 'export default 1', timeoutMs: 30_001 }))).toMatchObject({
        code: 'SCHEDULE_INVALID',
        details: { field: 'target.script.timeoutMs' },
      });
      expect(thrown(() => validate({ source: 'export default 1', memoryMb: 65 }))).toMatchObject({
        code: 'SCHEDULE_INVALID',
        details: { field: 'target.script.memoryMb' },
      });
      for (const bad of [
        { source: '' },
        { source: 'export default 1', timeoutMs: 0 },
        { source: 'export default 1', memoryMb: 1.5 },
        { source: 'export default 1', env: {} },
        'export default 1',
      ]) {
        expect(thrown(() => parseTarget({ script: bad }))).toMatchObject({ code: 'SCHEDULE_INVALID' });
      }
      expect(parseTarget({ script: { source: 'x', timeoutMs: 50, memoryMb: 8 } })).toEqual({
        script: { source: 'x', timeoutMs: 50, memoryMb: 8 },
      });
    });
  });

  describe('outcomes', () => {
    it('a return value is the result, with the logs: { value, logs }', async () => {
      const { outcome } = await s.deliver(
        `export default async (ctx) => {
          ctx.log('starting', ctx.payload, [1, 2], undefined, null, 3n);
          console.info('via console');
          return { doubled: ctx.payload.n * 2, scheduledFor: ctx.run.scheduledFor };
        }`,
        { payload: { n: 21 } },
      );
      expect(outcome).toEqual({
        type: 'ok',
        result: {
          value: { doubled: 42, scheduledFor: 1_767_225_600_000 },
          logs: ['starting {"n":21} [1,2] undefined null 3', 'via console'],
        },
      });
      const none = await s.deliver('export default () => {}');
      expect(none.outcome).toEqual({ type: 'ok', result: { value: null, logs: [] } });
    });

    it('a throw is a retryable SCRIPT_FAILED with the script’s message, stack and logs', async () => {
      const { outcome } = await s.deliver(`export default (ctx) => {
        ctx.log('about to fail');
        const check = (order) => { if (!order.shipped) throw new Error('order ' + order.id + ' not shipped'); };
        check({ id: 7, shipped: false });
      }`);
      expect(outcome).toMatchObject({
        type: 'retry',
        error: {
          code: 'SCRIPT_FAILED',
          message: 'order 7 not shipped',
          stack: expect.stringMatching(/at check \(script\.js:3:\d+\)/) as unknown,
          details: { logs: ['about to fail'] },
        },
      });
      const str = await s.deliver('export default async () => { throw "plain text"; }');
      expect(str.outcome).toMatchObject({ type: 'retry', error: { message: 'the script threw plain text' } });
      const type = await s.deliver('export default () => null.x');
      expect(type.outcome).toMatchObject({
        type: 'retry',
        error: { message: expect.stringMatching(/^TypeError: /) },
      });
      const missing = await s.deliver('export const handler = () => 1;');
      expect(endOf(missing.outcome)).toBe('fail:SCRIPT_FAILED');
    });

    it('ctx.checkAgain(at) asks for the check-again outcome (epoch ms, Date or ISO text)', async () => {
      for (const at of ['1767229200000', 'new Date(1767229200000)', '"2026-01-01T01:00:00.000Z"']) {
        const { outcome } = await s.deliver(
          `export default (ctx) => { ctx.log('not yet'); return ctx.checkAgain(${at}); }`,
        );
        expect(outcome).toEqual({ type: 'checkAgain', at: 1_767_229_200_000 });
      }
      const bad = await s.deliver('export default (ctx) => ctx.checkAgain("soon")');
      expect(endOf(bad.outcome)).toBe('retry:SCRIPT_FAILED');
      expect(bad.outcome.type === 'retry' && bad.outcome.error.message).toMatch(/checkAgain needs a time/);
    });

    it('keeps at most 100 log lines of at most 1 KiB, and says how many were dropped', async () => {
      const { outcome } = await s.deliver(`export default (ctx) => {
        ctx.log('é'.repeat(3000));
        const cyclic = {}; cyclic.self = cyclic;
        ctx.log(cyclic, new Array(100000).fill(1));
        for (let i = 0; i < 200; i++) ctx.log('line ' + i);
      }`);
      const logs = logsOf(outcome);
      expect(logs).toHaveLength(101);
      expect(Buffer.byteLength(logs[0]!)).toBeLessThanOrEqual(1024);
      expect(logs[0]).toMatch(/^é+$/);
      expect(logs[1]).toBe('[object] [array too large to log]');
      expect(logs[99]).toBe('line 97');
      expect(logs[100]).toBe('[102 more log lines dropped: the log limit was reached]');
    });

    it('refuses host calls beyond the per-run limits with SCRIPT_HOST_CALL_REFUSED', async () => {
      const flood = await s.deliver('export default async (ctx) => { for (;;) await ctx.kv.get("x"); }', {
        timeoutMs: 10_000,
      });
      expect(endOf(flood.outcome)).toBe('fail:SCRIPT_HOST_CALL_REFUSED');
      expect(flood.outcome.type === 'fail' && flood.outcome.error.message).toMatch(/at most 1000 host calls/);
      const parallel = await s.deliver(
        'export default (ctx) => Promise.all(Array.from({ length: 40 }, (_, i) => ctx.kv.get("k" + i)))',
      );
      expect(endOf(parallel.outcome)).toBe('fail:SCRIPT_HOST_CALL_REFUSED');
      expect(parallel.outcome.type === 'fail' && parallel.outcome.error.message).toMatch(/in flight/);
      const never = await s.deliver('export default () => new Promise(() => {})');
      expect(endOf(never.outcome)).toBe('fail:SCRIPT_FAILED');
      await expectServing(s);
    });

    it('runs scripts of two memory sizes side by side', async () => {
      const [a, b] = await Promise.all([
        s.deliver('export default () => new Uint8Array(8 << 20).length', { memoryMb: 32 }),
        s.deliver('export default () => 2', { memoryMb: 2 }),
      ]);
      expect([valueOf(a.outcome), valueOf(b.outcome)]).toEqual([8 << 20, 2]);
    });
  });

  it('maps every thread result to an outcome', () => {
    expect(scriptOutcome({ type: 'ok', json: '[1]', logs: ['l'] })).toEqual({
      type: 'ok',
      result: { value: [1], logs: ['l'] },
    });
    expect(scriptOutcome({ type: 'checkAgain', at: 5, logs: [] })).toEqual({ type: 'checkAgain', at: 5 });
    expect(
      scriptOutcome({ type: 'error', code: 'SCRIPT_TIMEOUT', message: 'm', retry: false, logs: [] }),
    ).toEqual({ type: 'fail', error: { code: 'SCRIPT_TIMEOUT', message: 'm' } });
    expect(
      scriptOutcome({
        type: 'error',
        code: 'SCRIPT_FAILED',
        message: 'm',
        stack: 's',
        retry: true,
        logs: ['x'],
      }),
    ).toEqual({
      type: 'retry',
      error: { code: 'SCRIPT_FAILED', message: 'm', stack: 's', details: { logs: ['x'] } },
    });
  });
});
