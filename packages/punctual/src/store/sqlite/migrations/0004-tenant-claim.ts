// Migration 0004: an index for claiming fairly across tenants. With several tenants due at once, the claim
// finds each tenant's due runs through it instead of walking past another tenant's backlog. Append-only:
// once released, this text never changes.

export const name = 'tenant-claim';

export const sql = `
CREATE INDEX runs_claim_tenant ON runs (tenant_id, priority, due_at, id) WHERE state = 'scheduled';
`;
