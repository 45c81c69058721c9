// The prefetch buffer follows delivery speed: its floor until a delivery is seen (its ceiling while claims
// find only runs ahead of their instant), its ceiling for fast handlers, and in between what `concurrency`
// slots get through in `waitMs`, or in `aheadMs` while claims find only runs ahead of their instant. A slow
// first delivery says how much of a guess to hand back.

import { describe, expect, it } from 'vitest';
import { PrefetchSizer } from '../../src/engine/prefetch-sizer.js';

const opts = { concurrency: 10, min: 10, max: 900, waitMs: 25, aheadMs: 100 };

describe('prefetch sizer', () => {
  it('holds its floor until a delivery has been seen', () => {
    expect(new PrefetchSizer(opts).limit).toBe(10);
  });

  it('goes to its ceiling for instant deliveries and stays at its floor for slow ones', () => {
    const fast = new PrefetchSizer(opts);
    fast.observe(0);
    expect(fast.limit).toBe(900);
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
    for (let i = 0; i < 100; i++) s.observe(0.05);
    expect(s.limit).toBe(900);
  });

  it('holds what the slots get through in aheadMs while claims find only runs ahead of their instant', () => {
    const s = new PrefetchSizer(opts);
    s.observe(5);
    s.claimed(true); // 10 slots × 100 ms / 5 ms
    expect(s.limit).toBe(200);
    s.claimed(false); // a claim took a run already due: back to waitMs
    expect(s.limit).toBe(50);
  });

  it('guesses its ceiling before the first delivery only while claims find runs ahead of their instant', () => {
    const s = new PrefetchSizer(opts);
    s.claimed(true);
    expect(s.limit).toBe(900);
    s.claimed(false); // nothing due may be hoarded on a guess
    expect(s.limit).toBe(10);
  });

  it('reports a first delivery of waitMs or more (ended or still running) as slow, once', () => {
    const quick = new PrefetchSizer(opts);
    expect(quick.observe(24)).toBe(false); // too little to go on: whole milliseconds
    expect(quick.stillRunning(25)).toBe(false); // the pace is known already
    const slow = new PrefetchSizer(opts);
    expect(slow.observe(25)).toBe(true);
    expect(slow.observe(1000)).toBe(false);
    const running = new PrefetchSizer(opts);
    expect(running.observed).toBe(false);
    expect(running.stillRunning(25)).toBe(true);
    expect(running.observed).toBe(true);
    expect(running.limit).toBe(10);
  });

  it('hands back what is beyond what the slots get through in waitMs, and no longer counts on runs ahead', () => {
    const s = new PrefetchSizer(opts);
    s.claimed(true);
    expect(s.observe(25)).toBe(true); // 10 slots × 25 ms / 25 ms = 10 kept
    expect(s.excess(90)).toBe(80);
    expect(s.excess(10)).toBe(0);
    expect(s.limit).toBe(10); // not 40 (aheadMs): what it held is due, and handed back
  });
});
