// The spec memo: a compiled cron spec is shared by every schedule with the same expression and zone, an
// error is thrown again (not remembered), and the memo stays bounded.

import { describe, expect, it } from 'vitest';
import { compileCronSpec } from '../../src/domain/timing/cron-spec.js';
import { memoize } from '../../src/domain/timing/memoize.js';

describe('memoize', () => {
  it('shares one compiled cron spec per expression and zone', () => {
    const a = compileCronSpec('*/5 * * * *', 'Europe/Paris');
    expect(compileCronSpec('*/5 * * * *', 'Europe/Paris')).toBe(a);
    expect(compileCronSpec('*/5 * * * *', 'UTC')).not.toBe(a);
    // Shared specs give the same answers whoever asks first.
    const t = Date.UTC(2026, 2, 29, 0, 58);
    expect(a.nextAfter(t)).toBe(compileCronSpec('*/5 * * * *', 'Europe/Paris').nextAfter(t));
  });

  it('throws again for bad input instead of remembering the failure', () => {
    expect(() => compileCronSpec('61 * * * *', 'UTC')).toThrow(/minute/);
    expect(() => compileCronSpec('61 * * * *', 'UTC')).toThrow(/minute/);
  });

  it('keeps at most `capacity` results, dropping the oldest', () => {
    let calls = 0;
    const f = memoize((x: string) => ({ x, n: ++calls }), 2);
    const a = f('a');
    f('b');
    expect(f('a')).toBe(a);
    f('c'); // evicts 'a', the oldest inserted
    expect(f('a')).not.toBe(a);
    expect(calls).toBe(4);
  });
});
