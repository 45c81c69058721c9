// The materializer's chains on SQLite (support/materializer-chains-suite.ts): a full batch starts a second
// claim-and-advance chain, every due schedule becomes exactly one run. SQLite runs one statement at a time,
// so the chains' calls are not seen in flight together.

import { sqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { materializerChainsSuite } from '../support/materializer-chains-suite.js';

materializerChainsSuite(
  'sqlite',
  async () => {
    const store = sqliteStore({ path: ':memory:' });
    return { store, close: () => store.close() };
  },
  false,
);
