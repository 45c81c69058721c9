// The prefetch buffer follows delivery speed: its floor until a delivery is seen, its ceiling for fast
// handlers, and in between what `concurrency` slots get through in `waitMs`.

import { describe, expect, it } from 'vitest';
import { PrefetchSizer } from '../../src/engine/prefetch-sizer.js';

const opts = { concurrency: 10, min: 10, max: 90, waitMs: 25 };

describe('prefetch sizer', () => {
  it('holds its floor until a delivery has been seen', () => {
    expect(new PrefetchSizer(opts).limit).toBe(10);
  });

  it('goes to its ceiling for instant deliveries and stays at its floor for slow ones', () => {
    const fast = new PrefetchSizer(opts);
    fast.observe(0);
    expect(fast.limit).toBe(90);
    const slow = new PrefetchSizer(opts);
    slow.observe(1000);
    expect(slow.limit).toBe(10);
  });

  it('sizes the buffer to what the slots get through in waitMs, following the running average', () => {
    const s = new PrefetchSizer(opts);
    s.observe(5); // 10 slots × 25 ms / 5 ms = 50
    expect(s.limit).toBe(50);
    for (let i = 0; i < 100; i++) s.observe(100); // the average moves towards 100 ms: the floor
    expect(s.limit).toBe(10);
    for (let i = 0; i < 100; i++) s.observe(0.5);
    expect(s.limit).toBe(90);
  });
});
