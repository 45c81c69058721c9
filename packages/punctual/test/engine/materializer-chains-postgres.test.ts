// The materializer's chains on PostgreSQL (support/materializer-chains-suite.ts), whose calls run at once: a
// full batch starts a second claim-and-advance chain, both in flight together, and every due schedule becomes
// exactly one run. Each test has a schema of its own, dropped after it. Needs PUNCTUAL_TEST_PG_URL; skipped
// without it, failing when PUNCTUAL_REQUIRE_SERVICES=1.

import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, it } from 'vitest';
import { postgresStore } from '../../src/store/postgres/postgres-store.js';
import { materializerChainsSuite } from '../support/materializer-chains-suite.js';

const PG_URL = process.env.PUNCTUAL_TEST_PG_URL ?? '';
const REQUIRED = process.env.PUNCTUAL_REQUIRE_SERVICES === '1';

if (PG_URL === '') {
  describe.skipIf(!REQUIRED)('materializer chains (postgres)', () => {
    it('needs PostgreSQL', () => {
      throw new Error('PUNCTUAL_REQUIRE_SERVICES=1 but PUNCTUAL_TEST_PG_URL is not set');
    });
  });
} else {
  materializerChainsSuite(
    'postgres',
    async () => {
      const schema = `t_${randomBytes(6).toString('hex')}`;
      const store = postgresStore({ connectionString: PG_URL, schema, listen: false });
      const close = async (): Promise<void> => {
        await store.close();
        const c = new pg.Client({ connectionString: PG_URL });
        await c.connect();
        await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await c.end();
      };
      return { store, close };
    },
    true,
  );
}
