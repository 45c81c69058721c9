// `punctual keys create|list|revoke --tenant <name>`: API keys, straight on the configured database. A new
// key is printed once, here, and only its SHA-256 hash and 11-character prefix are stored; listings show
// the prefix, never a hash. This file must never print a whole key except the one `create` just made.

import { PunctualError, type ApiKey } from 'punctual';
import { apiKeyPrefix, issueApiKey } from '../../tenancy/api-keys.js';
import { EXIT_OK, type CliIo } from '../io.js';
import { withStore, type AdminArgs } from '../open-store.js';
import { iso, printJson, table } from '../output.js';

export interface KeysArgs extends AdminArgs {
  tenant: string;
}

export interface KeysCreateArgs extends KeysArgs {
  /** A label for people ("ci", "billing service"). */
  name?: string | undefined;
}

export interface KeysRevokeArgs extends KeysArgs {
  id: string;
}

/** What a listing shows of a key: never its hash. */
export function keySummary(k: ApiKey): Record<string, unknown> {
  return {
    id: k.id,
    prefix: k.prefix,
    name: k.name,
    createdAt: iso(k.createdAt),
    revokedAt: k.revokedAt === null ? null : iso(k.revokedAt),
    lastUsedAt: k.lastUsedAt === null ? null : iso(k.lastUsedAt),
  };
}

export async function keysCreate(args: KeysCreateArgs, io: CliIo): Promise<number> {
  return withStore(args, io, { migrate: true }, async ({ store }) => {
    const { key, id } = await issueApiKey(store, args.tenant, { name: args.name ?? null, now: io.now() });
    const prefix = apiKeyPrefix(key);
    if (args.json === true) {
      printJson(io, { tenant: args.tenant, id, prefix, name: args.name ?? null, key });
    } else {
      io.stdout(
        [
          `punctual: created API key ${id} (${prefix}...) for the tenant "${args.tenant}".`,
          'It is shown this once (only its hash is stored); keep it somewhere safe:',
          '',
          `  ${key}`,
          '',
        ].join('\n'),
      );
    }
    return EXIT_OK;
  });
}

export async function keysList(args: KeysArgs, io: CliIo): Promise<number> {
  return withStore(args, io, { migrate: true }, async ({ store }) => {
    if (!(await store.getTenant(args.tenant))) {
      throw new PunctualError('TENANT_NOT_FOUND', `no tenant named ${args.tenant}`, { id: args.tenant });
    }
    const keys = await store.listApiKeys(args.tenant);
    if (args.json === true) {
      printJson(io, { items: keys.map(keySummary) });
      return EXIT_OK;
    }
    const rows = keys.map((k) => [
      k.id,
      `${k.prefix}...`,
      k.name ?? '-',
      iso(k.createdAt),
      iso(k.revokedAt),
      iso(k.lastUsedAt),
    ]);
    io.stdout(table(['ID', 'PREFIX', 'NAME', 'CREATED', 'REVOKED', 'LAST USED'], rows));
    return EXIT_OK;
  });
}

export async function keysRevoke(args: KeysRevokeArgs, io: CliIo): Promise<number> {
  return withStore(args, io, { migrate: true }, async ({ store }) => {
    if (!(await store.revokeApiKey(args.tenant, args.id, io.now()))) {
      throw new PunctualError(
        'API_KEY_NOT_FOUND',
        `the tenant "${args.tenant}" has no live API key with id ${args.id}`,
        { id: args.id },
      );
    }
    if (args.json === true) printJson(io, { tenant: args.tenant, id: args.id, revoked: true });
    else
      io.stdout(
        `punctual: revoked API key ${args.id} of the tenant "${args.tenant}": it stops working at once\n`,
      );
    return EXIT_OK;
  });
}
