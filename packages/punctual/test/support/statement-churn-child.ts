// Child of statement-churn.test.ts, run as `node --expose-gc --import tsx statement-churn-child.ts DRIVER N`:
// opens a store's connection with DRIVER, then prepares N distinct statements through the store's wrapper
// (each connection's cache is dropped with its connection every 500), runs each once and forces a full
// garbage collection every 250, so statements are finalized by the collector while the process keeps working.
// Prints `DONE <count>` and exits 0; a driver that crashes in a statement's finalizer takes the process down
// before that line.

import { SqliteDatabase } from '../../src/store/sqlite/sqlite-database.js';
import type { SqliteDriver } from '../../src/store/sqlite/sqlite-driver.js';

const [driver, n] = [process.argv[2] as SqliteDriver, Number(process.argv[3])];
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with --expose-gc');

let db = new SqliteDatabase({ path: ':memory:', driver });
let count = 0;
for (let i = 0; i < n; i++) {
  if (i % 500 === 0) {
    db.close();
    db = new SqliteDatabase({ path: ':memory:', driver });
    db.exec('CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)');
  }
  // Distinct text, so each is a new prepared statement; the wrapper's cache is the only reference.
  db.write(() => db.stmt(`INSERT INTO t (k, v) VALUES (?, 'v${i}')`).run(i));
  count += Number(db.pluck(`SELECT count(*) + ${i} - ${i} FROM t`).get());
  if (i % 250 === 0) gc();
}
db.close();
gc();
console.log(`DONE ${n} ${count > 0 ? 'rows' : 'none'}`);
