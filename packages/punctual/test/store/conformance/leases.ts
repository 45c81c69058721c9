// Conformance: leases and settlements. Extending, settling every outcome (retry, checkAgain, released,
// dead, cancelled), refusing stale tokens, and reclaiming lapsed leases until the attempts are used up.

import { expect, it } from 'vitest';
import { MINUTE, policies, T0 } from '../../support/fixtures.js';
import { addRuns, claim, claimOne, create, LEASE_MS, runOf, settlement, type Ctx } from './helpers.js';

export function leaseTests(ctx: Ctx): void {
  it('extends the leases still held and reports the others as lost', async () => {
    const s = await create(ctx.store);
    await addRuns(ctx.store, s, [T0, T0 + 1]);
    const { claimed } = await claim(ctx.store, T0 + 1, 2);
    const [a, b] = claimed;
    const held = await ctx.store.extendLeases(
      [
        { runId: a!.run.id, token: a!.token },
        { runId: b!.run.id, token: 'not-the-token' },
        { runId: '999999', token: a!.token },
      ],
      T0 + 5 * MINUTE,
      T0 + 2,
    );
    expect(held).toEqual([a!.run.id]);
    expect((await runOf(ctx.store, a!.run)).leaseExpiresAt).toBe(T0 + 5 * MINUTE);
    expect((await runOf(ctx.store, b!.run)).leaseExpiresAt).toBe(T0 + 1 + LEASE_MS);
  });

  it('settleAndClaim (when offered) settles and claims in one step, like the two calls in turn', async () => {
    if (!ctx.store.settleAndClaim) return;
    const s = await create(ctx.store);
    await addRuns(ctx.store, s, [T0, T0 + 1, T0 + 2]);
    const c = await claimOne(ctx.store, T0 + 10);
    const both = await ctx.store.settleAndClaim(
      [settlement(c, { state: 'succeeded', result: null }, T0 + 20)],
      { workerId: 'worker-1', now: T0 + 20, limit: 5, leaseMs: LEASE_MS },
    );
    expect(both.settled[0]).toMatchObject({ from: 'running', to: 'succeeded' });
    expect(both.claim.claimed.map((x) => x.run.scheduledFor)).toEqual([T0 + 1, T0 + 2]);
    const stale = await ctx.store.settleAndClaim(
      [settlement(c, { state: 'succeeded', result: null }, T0 + 30)],
      { workerId: 'worker-1', now: T0 + 30, limit: 5, leaseMs: LEASE_MS },
    );
    expect(stale.settled).toEqual([null]);
    expect(stale.claim.claimed).toEqual([]);
  });

  it('reports every settled run exactly as stored, whichever outcome and call', async () => {
    const s = await create(ctx.store);
    await addRuns(ctx.store, s, [T0, T0 + 1, T0 + 2, T0 + 3, T0 + 4, T0 + 5, T0 + 6]);
    const { claimed } = await claim(ctx.store, T0 + 10, 7);
    const [ok, retry, check, release, dead, gone, viaBoth] = claimed;
    const error = { code: 'BOOM', message: 'boom' };
    const now = T0 + 100;
    const batch = [
      settlement(ok!, { state: 'succeeded', result: { b: [1, 2], a: 'x' } }, now),
      settlement(retry!, { state: 'scheduled', reason: 'retry', dueAt: T0 + 5_000, error }, now),
      settlement(check!, { state: 'scheduled', reason: 'checkAgain', dueAt: T0 + 6_000, error: null }, now),
      settlement(release!, { state: 'scheduled', reason: 'released', dueAt: T0 + 7_000, error: null }, now),
      settlement(dead!, { state: 'dead', error }, now),
      settlement(gone!, { state: 'cancelled', reason: 'manual' }, now),
    ];
    const settled = await ctx.store.settleRuns(batch, now);
    const both = ctx.store.settleAndClaim
      ? (
          await ctx.store.settleAndClaim([settlement(viaBoth!, { state: 'succeeded', result: 7 }, now + 1)], {
            workerId: 'worker-1',
            now: now + 1,
            limit: 1,
            leaseMs: LEASE_MS,
          })
        ).settled
      : await ctx.store.settleRuns(
          [settlement(viaBoth!, { state: 'succeeded', result: 7 }, now + 1)],
          now + 1,
        );
    for (const t of [...settled, ...both]) {
      expect(t).not.toBeNull();
      expect(t!.run).toEqual(await runOf(ctx.store, t!.run));
    }
  });

  it('settles a success: result, finish time, lease released, attempt recorded', async () => {
    const s = await create(ctx.store);
    await addRuns(ctx.store, s, [T0]);
    const c = await claimOne(ctx.store, T0);
    const [t] = await ctx.store.settleRuns(
      [settlement(c, { state: 'succeeded', result: { n: 42 } }, T0 + 500)],
      T0 + 500,
    );
    expect(t).toMatchObject({ from: 'running', to: 'succeeded' });
    expect(t!.run).toMatchObject({
      state: 'succeeded',
      result: { n: 42 },
      finishedAt: T0 + 500,
      leaseOwner: null,
      leaseExpiresAt: null,
      attempt: 1,
    });
    const got = await ctx.store.getRun(s.tenantId, c.run.id);
    expect(got?.run).toEqual(t!.run);
    expect(got?.attempts).toEqual([
      settlement(c, { state: 'succeeded', result: { n: 42 } }, T0 + 500).attempt,
    ]);
  });

  it('settles a retry: scheduled again at dueAt with the error; the next claim is attempt 2', async () => {
    const s = await create(ctx.store);
    await addRuns(ctx.store, s, [T0]);
    const c = await claimOne(ctx.store, T0);
    const error = { code: 'ATTEMPT_FAILED', message: 'boom' };
    const [t] = await ctx.store.settleRuns(
      [settlement(c, { state: 'scheduled', reason: 'retry', dueAt: T0 + MINUTE, error }, T0 + 10)],
      T0 + 10,
    );
    expect(t).toMatchObject({ from: 'running', to: 'scheduled' });
    expect(t!.run).toMatchObject({
      state: 'scheduled',
      reason: 'retry',
      error,
      dueAt: T0 + MINUTE,
      attempt: 1,
      leaseOwner: null,
      finishedAt: null,
    });
    expect((await claim(ctx.store, T0 + MINUTE - 1)).claimed).toEqual([]);
    const again = await claimOne(ctx.store, T0 + MINUTE);
    expect(again.run).toMatchObject({ attempt: 2, startedAt: T0 });
    expect(again.token).not.toBe(c.token);
  });

  it('settles a check-again: checks counted, attempts start afresh', async () => {
    const s = await create(ctx.store);
    await addRuns(ctx.store, s, [T0]);
    const c = await claimOne(ctx.store, T0);
    const [t] = await ctx.store.settleRuns(
      [settlement(c, { state: 'scheduled', reason: 'checkAgain', dueAt: T0 + MINUTE, error: null }, T0)],
      T0,
    );
    expect(t!.run).toMatchObject({ state: 'scheduled', reason: 'checkAgain', checks: 1, attempt: 0 });
    const again = await claimOne(ctx.store, T0 + MINUTE);
    expect(again.run).toMatchObject({ attempt: 1, checks: 1 });
  });

  it('settles a release: the attempt is handed back', async () => {
    const s = await create(ctx.store);
    await addRuns(ctx.store, s, [T0]);
    const c = await claimOne(ctx.store, T0);
    const [t] = await ctx.store.settleRuns(
      [settlement(c, { state: 'scheduled', reason: 'released', dueAt: T0, error: null }, T0 + 5)],
      T0 + 5,
    );
    expect(t!.run).toMatchObject({ state: 'scheduled', reason: 'released', attempt: 0, dueAt: T0 });
    expect((await claimOne(ctx.store, T0 + 5)).run.attempt).toBe(1);
  });

  it('settles dead and cancelled runs as final', async () => {
    const s = await create(ctx.store);
    await addRuns(ctx.store, s, [T0, T0 + 1]);
    const { claimed } = await claim(ctx.store, T0 + 1, 2);
    const [a, b] = claimed;
    const error = { code: 'ATTEMPT_FAILED', message: 'permanent' };
    const ts = await ctx.store.settleRuns(
      [
        settlement(a!, { state: 'dead', error }, T0 + 2),
        settlement(b!, { state: 'cancelled', reason: 'manual' }, T0 + 2),
      ],
      T0 + 2,
    );
    expect(ts.map((t) => [t?.from, t?.to])).toEqual([
      ['running', 'dead'],
      ['running', 'cancelled'],
    ]);
    expect(ts[0]!.run).toMatchObject({ state: 'dead', error, finishedAt: T0 + 2, leaseOwner: null });
    expect(ts[1]!.run).toMatchObject({ state: 'cancelled', reason: 'manual', finishedAt: T0 + 2 });
    expect((await ctx.store.getRun(s.tenantId, a!.run.id))?.attempts).toHaveLength(1);
  });

  it('ends runs that were never delivered: attempt handed back, none recorded, startedAt as settled', async () => {
    const s = await create(ctx.store);
    await addRuns(ctx.store, s, [T0, T0 + 1, T0 + 2]);
    const { claimed } = await claim(ctx.store, T0 + 2, 3);
    const [a, b, c] = claimed;
    expect(a!.run.startedAt).toBe(T0 + 2); // the claim's instant, until a settlement says otherwise
    const ts = await ctx.store.settleRuns(
      [
        { ...settlement(a!, { state: 'expired', reason: 'deadline' }, T0 + 5), startedAt: null },
        { ...settlement(b!, { state: 'skipped', reason: 'paused' }, T0 + 5), startedAt: null },
        { ...settlement(c!, { state: 'succeeded', result: null }, T0 + 5), startedAt: T0 + 4 },
      ],
      T0 + 5,
    );
    expect(ts.map((t) => [t?.to, t?.run.reason, t?.run.attempt, t?.run.startedAt])).toEqual([
      ['expired', 'deadline', 0, null],
      ['skipped', 'paused', 0, null],
      ['succeeded', null, 1, T0 + 4],
    ]);
    for (const [i, x] of [a, b, c].entries()) {
      const stored = await ctx.store.getRun(s.tenantId, x!.run.id);
      expect(stored?.run).toEqual(ts[i]!.run);
      expect(stored?.attempts).toHaveLength(i === 2 ? 1 : 0);
    }
  });

  it('refuses a settlement with a stale token, a second settlement, or an unknown run', async () => {
    const s = await create(ctx.store);
    await addRuns(ctx.store, s, [T0, T0 + 1]);
    const { claimed } = await claim(ctx.store, T0 + 1, 2);
    const [a, b] = claimed;
    const ok = { state: 'succeeded', result: null } as const;
    const res = await ctx.store.settleRuns(
      [
        settlement(a!, ok, T0 + 2, 'forged'),
        settlement(b!, ok, T0 + 2),
        { ...settlement(b!, ok, T0 + 2), runId: '424242' },
      ],
      T0 + 2,
    );
    expect(res[0]).toBeNull();
    expect(res[1]?.to).toBe('succeeded');
    expect(res[2]).toBeNull();
    expect(await ctx.store.settleRuns([settlement(b!, ok, T0 + 3)], T0 + 3)).toEqual([null]);
    expect((await runOf(ctx.store, a!.run)).state).toBe('running');
    expect((await ctx.store.getRun(s.tenantId, a!.run.id))?.attempts).toEqual([]);
    expect((await ctx.store.getRun(s.tenantId, b!.run.id))?.attempts).toHaveLength(1);
  });

  it('reclaims a lapsed lease: scheduled again, the attempt counted, the old worker fenced off', async () => {
    const s = await create(ctx.store);
    await addRuns(ctx.store, s, [T0]);
    const c = await claimOne(ctx.store, T0, 'worker-gone');
    const expiry = T0 + LEASE_MS;
    expect(await ctx.store.reclaimExpiredLeases(expiry, 10)).toEqual([]);
    const ts = await ctx.store.reclaimExpiredLeases(expiry + 1, 10);
    expect(ts).toHaveLength(1);
    expect(ts[0]).toMatchObject({ from: 'running', to: 'scheduled' });
    expect(ts[0]!.run).toMatchObject({
      id: c.run.id,
      state: 'scheduled',
      reason: 'leaseExpired',
      dueAt: expiry + 1,
      attempt: 1,
      leaseOwner: null,
      leaseExpiresAt: null,
      finishedAt: null,
    });
    expect(ts[0]!.run.error?.code).toBe('LEASE_EXPIRED');
    const attempts = (await ctx.store.getRun(s.tenantId, c.run.id))?.attempts ?? [];
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({
      attempt: 1,
      workerId: 'worker-gone',
      startedAt: T0,
      finishedAt: expiry + 1,
      outcome: 'leaseExpired',
    });
    expect(attempts[0]!.error?.code).toBe('LEASE_EXPIRED');

    expect(
      await ctx.store.settleRuns(
        [settlement(c, { state: 'succeeded', result: null }, expiry + 2)],
        expiry + 2,
      ),
    ).toEqual([null]);
    expect(
      await ctx.store.extendLeases([{ runId: c.run.id, token: c.token }], expiry + LEASE_MS, expiry + 2),
    ).toEqual([]);
    const again = await claimOne(ctx.store, expiry + 2, 'worker-new');
    expect(again.run).toMatchObject({ attempt: 2, leaseOwner: 'worker-new' });
  });

  it('reclaims a lapsed lease as dead when no attempt remains', async () => {
    const s = await create(ctx.store, { policies: policies({ retry: { maxAttempts: 2 } }) });
    await addRuns(ctx.store, s, [T0], { maxAttempts: 2 });
    await claimOne(ctx.store, T0);
    const first = await ctx.store.reclaimExpiredLeases(T0 + LEASE_MS + 1, 10);
    expect(first.map((t) => t.to)).toEqual(['scheduled']);
    const second = await claimOne(ctx.store, T0 + LEASE_MS + 1);
    expect(second.run.attempt).toBe(2);
    const end = T0 + 2 * LEASE_MS + 2;
    const dead = await ctx.store.reclaimExpiredLeases(end, 10);
    expect(dead).toHaveLength(1);
    expect(dead[0]).toMatchObject({ from: 'running', to: 'dead' });
    expect(dead[0]!.run).toMatchObject({ state: 'dead', finishedAt: end, leaseOwner: null });
    expect(dead[0]!.run.error?.code).toBe('LEASE_EXPIRED');
    expect((await ctx.store.getRun(s.tenantId, second.run.id))?.attempts.map((a) => a.outcome)).toEqual([
      'leaseExpired',
      'leaseExpired',
    ]);
  });

  it('reclaims at most `limit` leases per call, oldest first', async () => {
    const s = await create(ctx.store);
    await addRuns(ctx.store, s, [T0, T0 + 1, T0 + 2]);
    for (const now of [T0, T0 + 1, T0 + 2]) await claimOne(ctx.store, now);
    const first = await ctx.store.reclaimExpiredLeases(T0 + 10 * LEASE_MS, 2);
    expect(first.map((t) => t.run.scheduledFor)).toEqual([T0, T0 + 1]);
    expect(await ctx.store.reclaimExpiredLeases(T0 + 10 * LEASE_MS, 2)).toHaveLength(1);
  });
}
