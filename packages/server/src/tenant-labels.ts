// The `tenant` label values of the metrics: the first N tenants seen get their own, the rest share `other`,
// so a label's cardinality stays bounded. It must never forget a tenant once given its own value.

/** Maps tenant ids to label values, keeping the label's cardinality at most `limit + 1`. */
export class TenantLabels {
  readonly #seen = new Set<string>();
  constructor(private readonly limit: number) {}
  of(tenantId: string): string {
    if (this.#seen.has(tenantId)) return tenantId;
    if (this.#seen.size < this.limit) {
      this.#seen.add(tenantId);
      return tenantId;
    }
    return 'other';
  }
}
