// Leases: a dead worker's run is reclaimed and counted as an attempt; a stale worker cannot settle; a
// worker that loses its lease aborts; graceful stop hands back unfinished runs; not-fired detection.

import { afterEach, describe, expect, it } from 'vitest';
import { harness, deferred, type Harness } from '../support/harness.js';
import { sqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let h: Harness;
afterEach(async () => h?.close());

describe('leases', () => {
  it('reclaims the run of a worker that died mid-delivery and counts the attempt', async () => {
    h = await harness({
      leaseMs: 30_000,
      reapIntervalMs: 5_000,
      roles: { materializer: true, worker: false },
    });
    h.s.handle('job', () => 'done');
    await h.s.put({ key: 'j', spec: '@in 1s', target: { handler: 'job' } });
    await h.clock.advance(1000);
    // A worker in another process claims the run, then dies (no heartbeat, no settle).
    const claim = await h.s.store.claimRuns({
      workerId: 'dead-worker',
      now: h.clock.now(),
      limit: 10,
      leaseMs: 30_000,
    });
    expect(claim.claimed).toHaveLength(1);
    const { run, token } = claim.claimed[0]!;
    // This scheduler takes over as a worker.
    await h.s.stop();
    const d = await harness({
      store: h.s.store,
      start: new Date(h.clock.now()).toISOString(),
      leaseMs: 30_000,
    });
    d.s.handle('job', () => 'done');
    const reclaimed = d.waitFor('lease:reclaimed');
    const succeeded = d.waitFor('run:succeeded');
    await d.clock.advance(40_000);
    expect((await reclaimed).run.error?.code).toBe('LEASE_EXPIRED');
    const done = await succeeded;
    expect(done.run.id).toBe(run.id);
    expect(done.run.attempt).toBe(2);
    // The dead worker wakes up and tries to settle: refused.
    const stale = await d.s.store.settleRuns(
      [
        {
          runId: run.id,
          token,
          outcome: { state: 'succeeded', result: 'late' },
          run,
          attempt: {
            runId: run.id,
            attempt: 1,
            workerId: 'dead-worker',
            startedAt: 0,
            finishedAt: 0,
            outcome: 'succeeded',
            error: null,
            result: null,
          },
        },
      ],
      d.clock.now(),
    );
    expect(stale).toEqual([null]);
    const detail = await d.s.getRun(run.id);
    expect(detail!.run.result).toBe('done');
    expect(detail!.attempts.map((a) => a.outcome)).toEqual(['leaseExpired', 'succeeded']);
    await d.close();
  });

  it('a worker whose run was cancelled elsewhere aborts the delivery and its settle is refused', async () => {
    h = await harness();
    const gate = deferred();
    let aborted = false;
    h.s.handle('slow', async (ctx) => {
      ctx.signal.addEventListener('abort', () => (aborted = true));
      await gate.promise;
      return 'finished anyway';
    });
    await h.s.put({
      key: 's',
      spec: '@in 1s',
      target: { handler: 'slow' },
      policies: { timeoutMs: 3_600_000 },
    });
    await h.clock.advance(1000);
    const started = h.of('run:started')[0]!.run;
    await h.s.cancelRun(started.id);
    await h.clock.advance(10_000); // a heartbeat finds the lease gone
    expect(aborted).toBe(true);
    expect(h.of('lease:lost').map((e) => e.runId)).toEqual([started.id]);
    gate.resolve();
    await h.clock.advance(1000);
    const detail = await h.s.getRun(started.id);
    expect(detail!.run.state).toBe('cancelled');
    expect(detail!.run.result).toBeNull();
  });

  it('graceful stop waits for in-flight runs, then hands back what did not finish without using an attempt', async () => {
    h = await harness();
    const quick = deferred();
    h.s.handle('quick', () => quick.promise);
    h.s.handle('stuck', () => new Promise(() => {}));
    await h.s.put({
      key: 'q',
      spec: '@in 1s',
      target: { handler: 'quick' },
      policies: { timeoutMs: 3_600_000 },
    });
    await h.s.put({
      key: 'st',
      spec: '@in 1s',
      target: { handler: 'stuck' },
      policies: { timeoutMs: 3_600_000 },
    });
    await h.clock.advance(1000);
    expect(h.of('run:started')).toHaveLength(2);
    const t0 = h.clock.now();
    const stopping = h.s.stop({ graceMs: 5000 });
    quick.resolve();
    await h.drive(stopping);
    expect(h.clock.now() - t0).toBeGreaterThanOrEqual(5000);
    expect(h.of('run:succeeded').map((e) => e.run.scheduleKey)).toEqual(['q']);
    const released = h.of('run:released');
    expect(released.map((e) => e.run.scheduleKey)).toEqual(['st']);
    expect(released[0]!.run.state).toBe('scheduled');
    expect(released[0]!.run.attempt).toBe(0);
  });

  it('graceful stop hands back prefetched runs that never started', async () => {
    // Claimed once due (not ahead), so the prefetch floor alone sets what is held: one run.
    h = await harness({ concurrency: 1, claimAheadMs: 0 });
    h.s.handle('stuck', () => new Promise(() => {}));
    for (const key of ['a', 'b', 'c']) {
      await h.s.put({
        key,
        spec: '@in 1s',
        target: { handler: 'stuck' },
        policies: { timeoutMs: 3_600_000 },
      });
    }
    await h.clock.advance(1000);
    expect(h.s.inFlight).toBe(2); // one delivering, one prefetched
    await h.drive(h.s.stop({ graceMs: 2000 }));
    expect(h.of('run:released')).toHaveLength(2);
    // Only the delivering run started: the prefetched one was claimed but never delivered.
    expect(h.of('run:started')).toHaveLength(1);
    const pending = await h.s.listRuns({ state: 'scheduled' });
    expect(pending.items.map((r) => r.attempt)).toEqual([0, 0, 0]);
  });

  it('reports a run that was due but never started within the grace', async () => {
    h = await harness({ roles: { materializer: true, worker: false }, notFiredGraceMs: 30_000 });
    h.s.handle('x', () => {});
    await h.s.put({ key: 'nf', spec: '@in 1s', target: { handler: 'x' } });
    const late = h.waitFor('schedule:notFired');
    await h.clock.advance(120_000);
    expect((await late).run?.scheduleKey).toBe('nf');
    expect(h.of('schedule:notFired')).toHaveLength(1);
  });

  it('keeps an acknowledged schedule across a restart on the same file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'punctual-restart-'));
    try {
      const path = join(dir, 'p.db');
      h = await harness({ path });
      h.s.handle('x', () => {});
      await h.s.put({ key: 'kept', spec: '@daily', target: { handler: 'x' } });
      await h.close();
      const store = sqliteStore({ path });
      h = await harness({ store });
      expect((await h.s.get('kept'))!.spec).toBe('@daily');
    } finally {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
