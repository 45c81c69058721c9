// Migration 3: an index for claiming fairly across tenants. With several tenants due at once, the claim
// finds the tenants with scheduled runs (a skip-scan) and each tenant's due runs per priority level through
// it, instead of walking past another tenant's backlog. Append-only: once released, this text never changes.
// `s` is the already-quoted schema name; DDL only, never a value. The name matches SQLite's.

export const name = 'tenant-claim';

export function sql(s: string): string {
  return `
CREATE INDEX runs_claim_tenant ON ${s}.runs (tenant_id, priority DESC, due_at, id) WHERE state = 'scheduled';
`;
}
