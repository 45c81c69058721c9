// Examples in docs/ that quote a value the code owns, checked against the code so they cannot go stale:
// the SQLite schema version in `punctual doctor`'s sample output (docs/operations.md).

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sqliteStore } from 'punctual';
import { describe, expect, it } from 'vitest';

const doc = (name: string): string =>
  readFileSync(fileURLToPath(new URL(`../../../docs/${name}`, import.meta.url)), 'utf8');

describe('docs/operations.md', () => {
  it("shows doctor's schema line with the SQLite store's current version", async () => {
    const store = sqliteStore({ path: ':memory:' });
    try {
      const { expected } = await store.schemaVersion();
      expect(expected).toBeGreaterThan(0);
      expect(doc('operations.md')).toContain(`✓ schema: version ${expected}, current\n`);
    } finally {
      await store.close();
    }
  });
});
