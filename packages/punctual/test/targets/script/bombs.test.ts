// Sandbox limits: every bomb ends its run with its own error code within its limit plus a margin, and the
// same pool then runs a normal script ("the service keeps serving"). Includes a C-level call the interrupt
// cannot reach (its thread is terminated and replaced) and tenant fairness in the queue.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  endOf,
  expectServing,
  MARGIN_MS,
  sandbox,
  TENANT_A,
  TENANT_B,
  valueOf,
  type Sandbox,
} from './support.js';

const LIMIT_MS = 500;
const MEMORY_WITHIN_MS = 5000;

describe('script sandbox: bombs', () => {
  let s: Sandbox;
  beforeAll(async () => {
    s = await sandbox({ poolSize: 1 });
  });
  afterAll(() => s.close());

  /**
   * Runs a bomb and checks its code, that it ended in time, and that the pool serves a normal script after.
   * Time bombs run with LIMIT_MS and must end within it plus the margin. Memory, stack and result bombs run
   * with a long time limit, so only their own limit can stop them, and must still end within MEMORY_WITHIN_MS.
   */
  async function expectEnd(source: string, end: string, memoryMb?: number): Promise<void> {
    const timeBomb = end === 'fail:SCRIPT_TIMEOUT';
    const timeoutMs = timeBomb ? LIMIT_MS : 10_000;
    const { outcome, ms } = await s.deliver(source, { timeoutMs, ...(memoryMb ? { memoryMb } : {}) });
    expect(endOf(outcome), JSON.stringify(outcome)).toBe(end);
    expect(ms).toBeLessThan(timeBomb ? LIMIT_MS + MARGIN_MS : MEMORY_WITHIN_MS);
    await expectServing(s);
  }

  it('an infinite loop ends with SCRIPT_TIMEOUT', async () => {
    await expectEnd('export default () => { for (;;) {} }', 'fail:SCRIPT_TIMEOUT');
  });

  it('an async infinite loop ends with SCRIPT_TIMEOUT', async () => {
    await expectEnd('export default async () => { for (;;) await null; }', 'fail:SCRIPT_TIMEOUT');
  });

  it('a loop in a finally block, and an endless await loop, end with SCRIPT_TIMEOUT', async () => {
    await expectEnd(
      'export default () => { try { for (;;) {} } finally { for (;;) {} } }',
      'fail:SCRIPT_TIMEOUT',
    );
    await expectEnd(
      'export default async () => { let n = 0; for (;;) { await Promise.resolve(n++); } }',
      'fail:SCRIPT_TIMEOUT',
    );
  });

  it('a script cannot catch the interrupt', async () => {
    await expectEnd(
      'export default () => { for (let i = 0; ; i++) { try { for (;;) {} } catch (e) { continue; } } }',
      'fail:SCRIPT_TIMEOUT',
    );
  });

  it('a string-doubling bomb ends with SCRIPT_OUT_OF_MEMORY', async () => {
    await expectEnd('export default () => { let s = "x"; for (;;) s = s + s; }', 'fail:SCRIPT_OUT_OF_MEMORY');
    // Flattened on every step (a search forces the whole string into memory).
    await expectEnd(
      'export default () => { let s = "x"; for (;;) { s = s + s; s.indexOf("y"); } }',
      'fail:SCRIPT_OUT_OF_MEMORY',
    );
    await expectEnd('export default () => "x".repeat(1e9)', 'fail:SCRIPT_OUT_OF_MEMORY');
  });

  it('a promise flood (jobs queued faster than they run) ends with SCRIPT_OUT_OF_MEMORY at once', async () => {
    // Queued jobs fill the memory while the loop never yields; the error object itself cannot be built.
    // With 8 MiB it used to end as `SCRIPT_FAILED: the script threw` (retried) instead.
    for (const memoryMb of [8, 16]) {
      await expectEnd(
        'export default () => { for (;;) Promise.resolve().then(() => {}); }',
        'fail:SCRIPT_OUT_OF_MEMORY',
        memoryMb,
      );
      await expectEnd(
        'export default () => { for (;;) { Promise.resolve().then(() => {}); } }',
        'fail:SCRIPT_OUT_OF_MEMORY',
        memoryMb,
      );
    }
  });

  it('array bombs (numbers, objects, preallocated, buffers) end with SCRIPT_OUT_OF_MEMORY', async () => {
    await expectEnd(
      'export default () => { const a = []; for (;;) a.push(1.5); }',
      'fail:SCRIPT_OUT_OF_MEMORY',
    );
    await expectEnd(
      'export default () => { const a = []; for (;;) a.push({ a: [] }); }',
      'fail:SCRIPT_OUT_OF_MEMORY',
    );
    await expectEnd('export default () => new Array(1e8).fill(0)', 'fail:SCRIPT_OUT_OF_MEMORY');
    await expectEnd(
      'export default () => { const next = () => Promise.resolve().then(next); return next(); }',
      'fail:SCRIPT_OUT_OF_MEMORY', // each step keeps the promise of the next: the chain grows until memory ends
    );
    await expectEnd(
      'export default () => { const a = []; for (;;) a.push(new ArrayBuffer(1 << 20)); }',
      'fail:SCRIPT_OUT_OF_MEMORY',
    );
  });

  it('the memory limit is the target’s: 64 MiB holds what 4 MiB does not', async () => {
    const source =
      'export default () => { const a = new Uint8Array(24 * 1024 * 1024); a[1] = 1; return a.length; }';
    const big = await s.deliver(source, { memoryMb: 64 });
    expect(valueOf(big.outcome)).toBe(24 * 1024 * 1024);
    await expectEnd(source, 'fail:SCRIPT_OUT_OF_MEMORY', 4);
  });

  it('deep recursion ends with SCRIPT_OUT_OF_MEMORY (stack)', async () => {
    await expectEnd(
      'export default () => { const f = (n) => f(n + 1) + 1; return f(0); }',
      'fail:SCRIPT_OUT_OF_MEMORY',
    );
    await expectEnd('export default () => JSON.parse("[".repeat(100000))', 'fail:SCRIPT_OUT_OF_MEMORY');
    await expectEnd(
      'export default () => { const o = {}; o.toString = function () { return "" + this; }; return String(o); }',
      'fail:SCRIPT_OUT_OF_MEMORY',
    );
  });

  it('a huge result ends with SCRIPT_RESULT_TOO_LARGE', async () => {
    await expectEnd('export default () => "x".repeat(1000000)', 'fail:SCRIPT_RESULT_TOO_LARGE');
    await expectEnd(
      'export default () => Array.from({ length: 100000 }, (_, i) => i)',
      'fail:SCRIPT_RESULT_TOO_LARGE',
    );
    await expectEnd(
      'export default async () => ({ a: "\\u0001".repeat(10000) })',
      'fail:SCRIPT_RESULT_TOO_LARGE',
    );
    await expectEnd('export default () => ({ toJSON() { for (;;) {} } })', 'fail:SCRIPT_TIMEOUT');
  });

  it('a script may catch its own out-of-memory and carry on', async () => {
    const { outcome } = await s.deliver(
      'export default () => { try { const a = []; for (;;) a.push(1.5); } catch (e) { return String(e); } }',
      { timeoutMs: 10_000 }, // only the memory limit may stop it, even on a loaded machine
    );
    expect(valueOf(outcome)).toBe('InternalError: out of memory');
  });

  it('a C-level call the interrupt cannot reach: the thread is terminated and replaced', async () => {
    const before = s.driver.stats().replaced;
    const hardMarginMs = s.driver.limits.hardMarginMs;
    const { outcome, ms } = await s.deliver(
      'export default () => "a".repeat(2000000).indexOf("a".repeat(5000) + "b")',
      { timeoutMs: 100 },
    );
    expect(endOf(outcome)).toBe('fail:SCRIPT_TIMEOUT');
    expect(outcome.type === 'fail' && outcome.error.message).toMatch(/terminated and replaced/);
    expect(ms).toBeLessThan(100 + hardMarginMs + MARGIN_MS);
    expect(s.driver.stats().replaced).toBe(before + 1);
    await expectServing(s);
    expect(s.driver.stats()).toMatchObject({ threads: 1, busy: 0, queued: 0 });
  });

  it('an aborted attempt stops its script at once, and one aborted while queued never starts', async () => {
    const abort = new AbortController();
    const running = s.deliver('export default () => { for (;;) {} }', {
      timeoutMs: 10_000,
      signal: abort.signal,
    });
    const queuedAbort = new AbortController();
    const queued = s.deliver('export default () => 1', { signal: queuedAbort.signal });
    queuedAbort.abort();
    abort.abort();
    const [r, q] = await Promise.all([running, queued]);
    expect(endOf(r.outcome)).toBe('retry:SCRIPT_TIMEOUT');
    expect(r.ms).toBeLessThan(MARGIN_MS);
    expect(endOf(q.outcome)).toBe('retry:SCRIPT_TIMEOUT');
    expect(q.outcome.type === 'retry' && q.outcome.error.message).toMatch(/before the script started/);
    await expectServing(s);
  });
});

describe('script sandbox: fairness', () => {
  it("one tenant's flood waits behind itself: another tenant's run is taken at the next free thread", async () => {
    const s = await sandbox({ poolSize: 2 });
    try {
      const finished: string[] = [];
      const loop = (name: string) =>
        s
          .deliver('export default () => { for (;;) {} }', { tenantId: TENANT_A, timeoutMs: 300 })
          .then(() => finished.push(name));
      const flood = [loop('a1'), loop('a2'), loop('a3'), loop('a4')];
      const other = s.deliver('export default () => "b"', { tenantId: TENANT_B }).then((r) => {
        finished.push('b');
        return r;
      });
      const [b] = await Promise.all([other, ...flood]);
      expect(valueOf(b.outcome)).toBe('b');
      // In arrival order b would wait for a3 and a4 to finish; taking turns, it runs beside a3.
      expect(finished.indexOf('b')).toBeLessThan(finished.indexOf('a4'));
    } finally {
      await s.close();
    }
  });
});
