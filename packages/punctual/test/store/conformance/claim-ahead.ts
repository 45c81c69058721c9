// Conformance: claiming ahead (ClaimRequest.dueBy). Runs of overlap `allow` due by `dueBy` are claimed with
// the ones due now, in due order; runs of any other policy wait until due by `now`; the lease and the
// deadline count from `now`; settleAndClaim and a claim shared among tenants take the same window.

import { expect, it } from 'vitest';
import { OTHER_TENANT, policies, T0 } from '../../support/fixtures.js';
import { addRuns, create, LEASE_MS, runOf, settlement, type Ctx } from './helpers.js';

export function claimAheadTests(ctx: Ctx): void {
  const ahead = (now: number, dueBy: number, limit = 10) =>
    ctx.store.claimRuns({ workerId: 'worker-1', now, limit, leaseMs: LEASE_MS, dueBy });

  it('claims runs of overlap allow due by dueBy, in due order, leased from now', async () => {
    const s = await create(ctx.store);
    const [due, soon, later, beyond] = await addRuns(ctx.store, s, [T0 - 5, T0 + 40, T0 + 100, T0 + 101]);
    const res = await ahead(T0, T0 + 100);
    expect(res.claimed.map((c) => c.run.id)).toEqual([due!.id, soon!.id, later!.id]);
    for (const c of res.claimed) {
      expect(c.run).toMatchObject({ state: 'running', attempt: 1, leaseExpiresAt: T0 + LEASE_MS });
    }
    expect((await runOf(ctx.store, beyond!)).state).toBe('scheduled');
  });

  it('leaves runs of any other overlap policy until they are due by now', async () => {
    const allow = await create(ctx.store, { key: 'allow' });
    const others = await Promise.all(
      (['skip', 'bufferOne', 'bufferAll', 'cancelPrevious'] as const).map((overlap) =>
        create(ctx.store, { key: overlap, policies: policies({ overlap }) }),
      ),
    );
    const waiting = [];
    for (const o of others) waiting.push(...(await addRuns(ctx.store, o, [T0 + 10])));
    const [a] = await addRuns(ctx.store, allow, [T0 + 20]);
    const res = await ahead(T0, T0 + 100);
    expect(res.claimed.map((c) => c.run.id)).toEqual([a!.id]);
    expect(res.transitions.filter((t) => t.to !== 'running')).toEqual([]);
    for (const r of waiting) expect((await runOf(ctx.store, r)).state).toBe('scheduled');
    const due = await ahead(T0 + 10, T0 + 10);
    expect(due.claimed.map((c) => c.run.id).sort()).toEqual(waiting.map((r) => r.id).sort());
  });

  it('a dueBy before now claims what is due by now, as without one', async () => {
    const s = await create(ctx.store);
    const [due, future] = await addRuns(ctx.store, s, [T0, T0 + 1]);
    const res = await ahead(T0, T0 - 1000);
    expect(res.claimed.map((c) => c.run.id)).toEqual([due!.id]);
    expect((await runOf(ctx.store, future!)).state).toBe('scheduled');
  });

  it('settleAndClaim takes the same window', async () => {
    const s = await create(ctx.store);
    const [first, next] = await addRuns(ctx.store, s, [T0, T0 + 50]);
    const [c] = (await ahead(T0, T0)).claimed;
    expect(c!.run.id).toBe(first!.id);
    const both = await ctx.store.settleAndClaim(
      [settlement(c!, { state: 'succeeded', result: null }, T0 + 1)],
      {
        workerId: 'worker-1',
        now: T0 + 1,
        limit: 5,
        leaseMs: LEASE_MS,
        dueBy: T0 + 60,
      },
    );
    expect(both.settled[0]).toMatchObject({ to: 'succeeded' });
    expect(both.claim.claimed.map((x) => x.run.id)).toEqual([next!.id]);
  });

  it('a claim shared among tenants takes each share from the same window', async () => {
    const a = await create(ctx.store, { key: 'a' });
    const b = await create(ctx.store, { key: 'b', tenantId: OTHER_TENANT });
    const [aNow, aSoon] = await addRuns(ctx.store, a, [T0, T0 + 30]);
    const [bNow, bSoon] = await addRuns(ctx.store, b, [T0, T0 + 30]);
    const res = await ahead(T0, T0 + 50);
    expect(res.claimed.map((c) => c.run.id).sort()).toEqual(
      [aNow!.id, aSoon!.id, bNow!.id, bSoon!.id].sort(),
    );
  });
}
