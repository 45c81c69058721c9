// The per-run overhead of a trivial script through the whole driver (thread hand-off, a fresh QuickJS
// runtime and context, the API bootstrap, the module, the result back): printed, never asserted, since
// timings depend on the machine. The only checks are that every run succeeded.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandbox, valueOf, type Sandbox } from './support.js';

const WARMUP = 50;
const RUNS = 1000;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

describe('script sandbox: overhead', () => {
  let s: Sandbox;
  beforeAll(async () => {
    s = await sandbox({ poolSize: 1 });
  });
  afterAll(() => s.close());

  it(`measures a trivial script over ${RUNS} sequential runs (p50, p99)`, async () => {
    const source = 'export default (ctx) => ctx.payload.n + 1';
    for (let i = 0; i < WARMUP; i++) valueOf((await s.deliver(source, { payload: { n: i } })).outcome);
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const { outcome, ms } = await s.deliver(source, { payload: { n: i } });
      expect(valueOf(outcome)).toBe(i + 1);
      times.push(ms);
    }
    times.sort((a, b) => a - b);
    const line =
      `script overhead (trivial script, one thread, ${RUNS} runs): ` +
      `p50 ${percentile(times, 50).toFixed(2)} ms, p99 ${percentile(times, 99).toFixed(2)} ms, ` +
      `max ${times.at(-1)!.toFixed(2)} ms`;
    console.log(line);
  });
});
