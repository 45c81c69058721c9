// How a claim is shared among tenants, the same plan for both stores: when several tenants have runs due,
// each gets an equal share of the claim, starting with a rotating tenant (`turn`), then what is left goes to
// them in the same order; a tenant's backlog never holds back another's runs due at the same moment. One
// tenant (or none): one share of the whole claim, over every tenant. Pure: it must never run a statement;
// the stores execute the shares in order.

/** One step of a claim: claim `tenant`'s runs (null: any tenant's) until `cap` more are claimed. */
export interface ClaimShare {
  tenant: string | null;
  cap: number;
}

/** The shares of a claim of `limit` runs among the tenants with runs due, in the order to execute them. */
export function claimShares(tenants: readonly string[], turn: number, limit: number): ClaimShare[] {
  if (tenants.length <= 1) return [{ tenant: null, cap: limit }];
  const start = turn % tenants.length;
  const order = [...tenants.slice(start), ...tenants.slice(0, start)];
  const share = Math.max(1, Math.ceil(limit / tenants.length));
  const out: ClaimShare[] = [];
  for (const cap of [share, limit]) for (const tenant of order) out.push({ tenant, cap });
  return out;
}

/** How many runs a claim may have claimed once `share` is done, `claimed` claimed before it. */
export function shareUntil(share: ClaimShare, claimed: number, limit: number): number {
  return Math.min(limit, claimed + share.cap);
}
