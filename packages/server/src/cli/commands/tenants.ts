// `punctual tenants create|list|disable|enable`: the operator's view of tenants, straight on the configured
// database. Creating one generates its webhook signing secret (never printed here: the tenant reads it
// with GET /v1/tenant) and optional quotas; disabling stops every key of the tenant at its next request.
// Names and quotas are the store's to judge (TENANT_INVALID); this file only parses numbers and prints.

import { PunctualError, generateWebhookSecret, type Tenant, type TenantQuotas } from 'punctual';
import { ArgumentError, EXIT_OK, type CliIo } from '../io.js';
import { withStore, type AdminArgs } from '../open-store.js';
import { iso, printJson, table } from '../output.js';

export interface TenantsCreateArgs extends AdminArgs {
  name: string;
  /** Most schedules; `none` (or absent) for no limit. */
  maxSchedules?: string | undefined;
  /** Most runs started per minute; `none` (or absent) for no limit. */
  maxRunsPerMinute?: string | undefined;
  /** API requests per second; `none` (or absent) for the service default. */
  requestsPerSecond?: string | undefined;
}

export interface TenantStateArgs extends AdminArgs {
  name: string;
}

function quota(option: string, text: string | undefined, integer: boolean): number | null {
  if (text === undefined || text.trim() === 'none') return null;
  const t = text.trim();
  const n = (integer ? /^\d+$/ : /^\d+(\.\d+)?$/).test(t) ? Number(t) : NaN;
  if (!Number.isFinite(n)) {
    const what = integer ? 'a whole number' : 'a number';
    throw new ArgumentError(`${option} must be ${what} or "none" (got "${text}")`);
  }
  return n;
}

/** What a listing shows of a tenant: never its webhook secrets. */
export function tenantSummary(t: Tenant): Record<string, unknown> {
  return {
    name: t.id,
    state: t.state,
    quotas: t.quotas,
    createdAt: iso(t.createdAt),
    updatedAt: iso(t.updatedAt),
  };
}

const show = (v: number | null): string => (v === null ? '-' : String(v));

export async function tenantsCreate(args: TenantsCreateArgs, io: CliIo): Promise<number> {
  return withStore(args, io, { migrate: true }, async ({ store }) => {
    const quotas: TenantQuotas = {
      maxSchedules: quota('--max-schedules', args.maxSchedules, true),
      maxRunsPerMinute: quota('--max-runs-per-minute', args.maxRunsPerMinute, true),
      requestsPerSecond: quota('--requests-per-second', args.requestsPerSecond, false),
    };
    const tenant = await store.createTenant({
      id: args.name,
      quotas,
      webhookSecret: generateWebhookSecret(),
      now: io.now(),
    });
    if (args.json === true) printJson(io, tenantSummary(tenant));
    else {
      io.stdout(
        `punctual: created the tenant "${tenant.id}" with a fresh webhook signing secret ` +
          `(its keys read it with GET /v1/tenant)\n` +
          `  give it an API key: punctual keys create --tenant ${tenant.id}\n`,
      );
    }
    return EXIT_OK;
  });
}

export async function tenantsList(args: AdminArgs, io: CliIo): Promise<number> {
  return withStore(args, io, { migrate: true }, async ({ store }) => {
    const tenants = await store.listTenants();
    if (args.json === true) {
      printJson(io, { items: tenants.map(tenantSummary) });
      return EXIT_OK;
    }
    const rows = await Promise.all(
      tenants.map(async (t) => {
        const live = (await store.listApiKeys(t.id)).filter((k) => k.revokedAt === null).length;
        return [
          t.id,
          t.state,
          String(live),
          show(t.quotas.maxSchedules),
          show(t.quotas.maxRunsPerMinute),
          show(t.quotas.requestsPerSecond),
          iso(t.createdAt),
        ];
      }),
    );
    io.stdout(
      table(['NAME', 'STATE', 'KEYS', 'MAX SCHEDULES', 'MAX RUNS/MIN', 'REQUESTS/S', 'CREATED'], rows),
    );
    return EXIT_OK;
  });
}

/** `tenants disable <name>` and `tenants enable <name>`. */
export async function tenantsSetState(
  args: TenantStateArgs & { state: Tenant['state'] },
  io: CliIo,
): Promise<number> {
  return withStore(args, io, { migrate: true }, async ({ store }) => {
    const tenant = await store.updateTenant(args.name, { state: args.state }, io.now());
    if (!tenant) {
      throw new PunctualError('TENANT_NOT_FOUND', `no tenant named ${args.name}`, { id: args.name });
    }
    if (args.json === true) printJson(io, tenantSummary(tenant));
    else if (args.state === 'disabled') {
      io.stdout(`punctual: disabled the tenant "${tenant.id}": its API keys stop working at once\n`);
    } else io.stdout(`punctual: enabled the tenant "${tenant.id}"\n`);
    return EXIT_OK;
  });
}
