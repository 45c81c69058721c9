// Wires the admin commands (migrate, tenants, keys, doctor) to commander: names, arguments, options and
// help. Like main.ts it holds no command logic: each action calls a command function with (args, io) and
// hands its exit code back. The database comes from the configuration, exactly as for `serve`.

import type { Command } from 'commander';
import { doctor } from './commands/doctor.js';
import { keysCreate, keysList, keysRevoke } from './commands/keys.js';
import { migrate } from './commands/migrate.js';
import { tenantsCreate, tenantsList, tenantsSetState } from './commands/tenants.js';
import type { CliIo } from './io.js';
import type { Env } from './output.js';

export interface Wiring {
  io: CliIo;
  env: Env;
  /** Records a command's exit code. */
  exit(code: number): void;
  /** Standard output is a terminal (progress lines are drawn only then). */
  isTty?: boolean | undefined;
  /** Asks a yes/no question on the terminal; absent when standard input or output is not one. */
  confirm?: ((question: string) => Promise<boolean>) | undefined;
}

const DATABASE_HELP =
  '\nThe database is the one `punctual serve` uses: PUNCTUAL_DATABASE_URL (PostgreSQL) or ' +
  'PUNCTUAL_DATABASE_PATH (SQLite, default ./data/punctual.db), or their keys in the PUNCTUAL_CONFIG file.';

type Opts = { json?: boolean };

export function registerAdmin(program: Command, w: Wiring): void {
  const base = { env: w.env };

  program
    .command('migrate')
    .description('apply the pending schema migrations to the configured database')
    .option('--json', 'print {"database", "from", "to"}')
    .addHelpText('after', DATABASE_HELP)
    .action(async (o: Opts) => w.exit(await migrate({ ...base, ...o }, w.io)));

  program
    .command('doctor')
    .description(
      'check the configuration, the database and its schema version, the clock offset, tenants, the service and the webhook allow-list',
    )
    .option('--json', 'print {"ok", "checks": [{"name", "status", "message"}]}')
    .addHelpText(
      'after',
      `${DATABASE_HELP}\nThe service is probed at PUNCTUAL_URL (else the configured address).\n` +
        'Exits 1 when a check fails (✗); warnings (!) and checks that could not run (-) do not.',
    )
    .action(async (o: Opts) => w.exit(await doctor({ ...base, ...o }, w.io)));

  const tenants = program
    .command('tenants')
    .description('create, list, disable and enable tenants')
    .addHelpText('after', DATABASE_HELP);
  tenants
    .command('create')
    .description('create a tenant (with a fresh webhook signing secret)')
    .argument('<name>', 'lowercase letters, digits, - and _ (up to 63)')
    .option('--max-schedules <n>', 'most schedules it may have (default: none)')
    .option('--max-runs-per-minute <n>', 'most runs it may start per minute (default: none)')
    .option('--requests-per-second <n>', 'its API rate (default: PUNCTUAL_DEFAULT_RATE_LIMIT)')
    .option('--json', 'print the tenant as JSON')
    .action(
      async (
        name: string,
        o: Opts & { maxSchedules?: string; maxRunsPerMinute?: string; requestsPerSecond?: string },
      ) => w.exit(await tenantsCreate({ ...base, ...o, name }, w.io)),
    );
  tenants
    .command('list')
    .description('list tenants with their state, live keys and quotas')
    .option('--json', 'print {"items": [...]}')
    .action(async (o: Opts) => w.exit(await tenantsList({ ...base, ...o }, w.io)));
  for (const [verb, state] of [
    ['disable', 'disabled'],
    ['enable', 'active'],
  ] as const) {
    tenants
      .command(verb)
      .description(
        verb === 'disable' ? 'disable a tenant: its API keys stop working at once' : 'enable a tenant again',
      )
      .argument('<name>')
      .option('--json', 'print the tenant as JSON')
      .action(async (name: string, o: Opts) =>
        w.exit(await tenantsSetState({ ...base, ...o, name, state }, w.io)),
      );
  }

  const keys = program
    .command('keys')
    .description("create, list and revoke a tenant's API keys")
    .addHelpText('after', DATABASE_HELP);
  keys
    .command('create')
    .description('create an API key; it is printed once, only its hash is stored')
    .requiredOption('--tenant <name>', 'the tenant the key belongs to')
    .option('--name <label>', 'a label for people, such as "billing service"')
    .option('--json', 'print {"tenant", "id", "prefix", "name", "key"}')
    .action(async (o: Opts & { tenant: string; name?: string }) =>
      w.exit(await keysCreate({ ...base, ...o }, w.io)),
    );
  keys
    .command('list')
    .description("list a tenant's keys: id, prefix, name, created, revoked, last used")
    .requiredOption('--tenant <name>', 'the tenant')
    .option('--json', 'print {"items": [...]}')
    .action(async (o: Opts & { tenant: string }) => w.exit(await keysList({ ...base, ...o }, w.io)));
  keys
    .command('revoke')
    .description('revoke a key by its id: it stops working at once')
    .argument('<id>', 'the key id (from keys list)')
    .requiredOption('--tenant <name>', 'the tenant the key belongs to')
    .option('--json', 'print {"tenant", "id", "revoked"}')
    .action(async (id: string, o: Opts & { tenant: string }) =>
      w.exit(await keysRevoke({ ...base, ...o, id }, w.io)),
    );
}
