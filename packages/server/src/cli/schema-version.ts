// The schema version of the configured database and the version this build of Punctual expects, for
// `migrate` and `doctor`, as the store itself reports them (Store.schemaVersion). It only reads: it never
// applies a migration to the database it inspects.

import type { SchemaVersion, Store } from 'punctual';

/** The store's applied schema version and the one this build expects. */
export async function schemaVersion(store: Store): Promise<SchemaVersion> {
  return store.schemaVersion();
}
