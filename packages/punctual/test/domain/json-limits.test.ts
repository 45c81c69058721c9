// Payload limits: depth and size are checked by one bounded walk before anything else walks the value, so
// the answer is the same on every Node version (a payload nested 200,000 deep must not depend on whether
// JSON.stringify runs out of stack). Schedules, triggers and the key-value store share the helper.

import { afterEach, describe, expect, it } from 'vitest';
import {
  JSON_MAX_DEPTH,
  PAYLOAD_MAX_BYTES,
  boundedResult,
  jsonProblem,
} from '../../src/domain/json-limits.js';
import { ok } from '../../src/targets/outcomes.js';
import { normalizeSchedule } from '../../src/domain/schedule.js';
import { KV_VALUE_MAX_DEPTH } from '../../src/store/kv-rules.js';
import { PunctualError } from '../../src/errors.js';
import { harness, type Harness } from '../support/harness.js';

const NOW = Date.parse('2026-01-05T00:00:00Z');

function nested(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

function refusal(fn: () => unknown): PunctualError {
  try {
    fn();
  } catch (e) {
    if (e instanceof PunctualError) return e;
    throw e;
  }
  throw new Error('expected a PunctualError');
}

const put = (payload: unknown): unknown =>
  normalizeSchedule(
    { key: 'k', spec: '0 9 * * *', target: { handler: 'h' }, payload: payload as never },
    { tenantId: 't', now: NOW },
  );

describe('jsonProblem', () => {
  it('allows exactly JSON_MAX_DEPTH levels of nesting and refuses one more', () => {
    expect(JSON_MAX_DEPTH).toBe(64);
    expect(jsonProblem(nested(64))).toBeNull();
    expect(jsonProblem(nested(65))).toMatchObject({ kind: 'depth' });
  });

  it('answers for 200,000 levels without walking them (no stack overflow)', () => {
    expect(jsonProblem(nested(200_000))).toMatchObject({ kind: 'depth' });
  });

  it('names what is not JSON', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (const v of [() => 1, Number.NaN, Infinity, new Date(NOW), cyclic, { a: undefined }]) {
      expect(jsonProblem(v)).toMatchObject({ kind: 'type' });
    }
    expect(jsonProblem({ a: undefined }, { undefinedMembers: 'skip' })).toBeNull();
  });

  it('is the key-value store depth too', () => {
    expect(KV_VALUE_MAX_DEPTH).toBe(JSON_MAX_DEPTH);
  });
});

describe('schedule payload limits', () => {
  it('refuses a payload nested 200,000 deep with SCHEDULE_INVALID on payload, naming the limit', () => {
    const e = refusal(() => put(nested(200_000)));
    expect(e.code).toBe('SCHEDULE_INVALID');
    expect(e.details).toMatchObject({ field: 'payload', maxDepth: 64 });
    expect(e.message).toMatch(/nested at most 64 levels/);
  });

  it('accepts 64 levels, refuses 65', () => {
    expect(() => put(nested(64))).not.toThrow();
    expect(refusal(() => put(nested(65))).details).toMatchObject({ field: 'payload' });
  });

  it('refuses a payload larger than PAYLOAD_MAX_BYTES as JSON (UTF-8), accepts one at the limit', () => {
    expect(PAYLOAD_MAX_BYTES).toBe(262_144);
    // "xxx…" as JSON is the characters plus two quotes.
    expect(() => put('x'.repeat(PAYLOAD_MAX_BYTES - 2))).not.toThrow();
    const e = refusal(() => put('x'.repeat(PAYLOAD_MAX_BYTES - 1)));
    expect(e.code).toBe('SCHEDULE_INVALID');
    expect(e.details).toEqual({ field: 'payload', bytes: PAYLOAD_MAX_BYTES + 1, limit: PAYLOAD_MAX_BYTES });
    // Multi-byte characters count as their UTF-8 bytes.
    expect(refusal(() => put('é'.repeat(PAYLOAD_MAX_BYTES / 2))).details).toMatchObject({ field: 'payload' });
  });

  it('refuses values that are not JSON, and leaves undefined members out as JSON does', () => {
    expect(refusal(() => put({ when: new Date(NOW) })).details).toMatchObject({ field: 'payload' });
    expect(refusal(() => put({ n: Number.NaN })).code).toBe('SCHEDULE_INVALID');
  });
});

describe('trigger payload limits', () => {
  let h: Harness;
  afterEach(async () => h?.close());

  it('refuses a deep or oversized override and writes no run', async () => {
    h = await harness();
    h.s.handle('t', () => {});
    await h.s.put({ key: 'tr', spec: '@yearly', target: { handler: 't' } });
    for (const payload of [nested(200_000), 'x'.repeat(PAYLOAD_MAX_BYTES)]) {
      await expect(h.s.trigger('tr', { payload: payload as never })).rejects.toMatchObject({
        code: 'SCHEDULE_INVALID',
        details: { field: 'payload' },
      });
    }
    expect((await h.s.listRuns({ scheduleKey: 'tr' })).items).toHaveLength(0);
  });
});

describe('result limits', () => {
  let h: Harness;
  afterEach(async () => h?.close());

  it('keeps a result nested deeper than JSON_MAX_DEPTH as RESULT_TOO_LARGE; the run still succeeds', async () => {
    h = await harness();
    h.s.handle('deep', () => ok(nested(200_000) as never));
    await h.s.put({ key: 'd', spec: '@in 1s', target: { handler: 'deep' } });
    const done = h.waitFor('run:succeeded');
    await h.clock.advance(1000);
    const { run } = await done;
    expect(run.result).toEqual({ error: 'RESULT_TOO_LARGE', maxDepth: JSON_MAX_DEPTH });
  });

  it('caps by size as before', () => {
    expect(boundedResult({ a: 'x'.repeat(100) }, 50)).toEqual({
      error: 'RESULT_TOO_LARGE',
      bytes: 108,
      limit: 50,
    });
    expect(boundedResult({ a: 1 }, 50)).toEqual({ a: 1 });
  });
});
