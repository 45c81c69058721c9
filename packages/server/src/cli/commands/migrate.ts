// `punctual migrate`: applies the pending schema migrations to the configured database (SQLite file or
// PostgreSQL schema) and says from which version to which. Migrating is the store's work and is safe with
// instances running; a database migrated by a newer Punctual is refused (SCHEMA_TOO_NEW), never touched.

import { EXIT_OK, type CliIo } from '../io.js';
import { withStore, type AdminArgs } from '../open-store.js';
import { printJson } from '../output.js';
import { schemaVersion } from '../schema-version.js';

export type MigrateArgs = AdminArgs;

export async function migrate(args: MigrateArgs, io: CliIo): Promise<number> {
  return withStore(args, io, { migrate: false }, async ({ store, database }) => {
    const before = await schemaVersion(store);
    await store.migrate();
    const after = await schemaVersion(store);
    if (args.json === true) {
      printJson(io, { database, from: before.applied, to: after.applied });
    } else if (before.applied === after.applied) {
      io.stdout(`punctual: ${database} is at schema version ${after.applied}: nothing to apply\n`);
    } else {
      io.stdout(`punctual: migrated ${database} from schema version ${before.applied} to ${after.applied}\n`);
    }
    return EXIT_OK;
  });
}
