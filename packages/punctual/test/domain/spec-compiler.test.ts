// The spec compiler of a bulk put: one compilation per distinct spec, its error remembered too, a cron
// without endAt shared across instants, and every other form kept apart by `now` and its anchor.

import { expect, it } from 'vitest';
import { isPunctualError } from '../../src/errors.js';
import { batchSpecCompiler } from '../../src/domain/timing/spec-compiler.js';

const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);

it('compiles a spec once and hands the same result to every schedule that shares it', () => {
  const compile = batchSpecCompiler();
  const a = compile('0 9 * * *', { tz: 'Europe/Paris', now: T0, anchor: T0 });
  expect(compile('0 9 * * *', { tz: 'Europe/Paris', now: T0 + 60_000, anchor: T0 - 1 })).toBe(a);
  expect(compile('0 9 * * *', { tz: 'UTC', now: T0, anchor: T0 })).not.toBe(a);
  expect(compile('0 9 * * *', { tz: 'Europe/Paris', now: T0, dst: { gap: 'skip' } })).not.toBe(a);
  expect(a.nextAfter(T0)).toBe(Date.UTC(2026, 0, 6, 8, 0, 0));
  // The last answer is kept, and a new instant is searched again.
  expect(a.nextAfter(T0)).toBe(Date.UTC(2026, 0, 6, 8, 0, 0));
  expect(a.nextAfter(Date.UTC(2026, 0, 6, 8, 0, 0))).toBe(Date.UTC(2026, 0, 7, 8, 0, 0));
});

it('keeps a bounded cron and every other form apart by now and anchor', () => {
  const compile = batchSpecCompiler();
  const endAt = T0 + 86_400_000;
  const bounded = compile('0 9 * * *', { now: T0, endAt });
  expect(compile('0 9 * * *', { now: T0 + 1, endAt })).not.toBe(bounded);
  const every = compile('@every 1h', { now: T0, anchor: T0 });
  expect(compile('@every 1h', { now: T0, anchor: T0 })).toBe(every);
  expect(compile('@every 1h', { now: T0, anchor: T0 + 1 })).not.toBe(every);
  const inTen = compile('@in 10m', { now: T0 });
  expect(compile('@in 10m', { now: T0 + 1 }).nextAfter(T0)).toBe(inTen.nextAfter(T0)! + 1);
});

it('remembers an error and throws it again for the same input', () => {
  const compile = batchSpecCompiler();
  const first = (() => {
    try {
      compile('61 9 * * *', { now: T0 });
    } catch (e) {
      return e;
    }
  })();
  expect(isPunctualError(first, 'SPEC_INVALID')).toBe(true);
  expect(() => compile('61 9 * * *', { now: T0 })).toThrow(first as Error);
});
