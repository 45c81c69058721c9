// Child process for the crash test: opens the SQLite store at argv[2] and, forever, saves a schedule and a
// run, then prints `ACK <key>` once both writes are acknowledged. The parent kills it with SIGKILL at an
// arbitrary point and checks that every acknowledged key survived. Instants are fixed; no clock is read.

import { sqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { draft, runInsert, T0 } from './fixtures.js';

const [path, prefix = 'crash'] = process.argv.slice(2);
if (path === undefined) throw new Error('usage: crash-child.ts <dbfile> [key prefix]');

const store = sqliteStore({ path });
await store.migrate();
process.stdout.write('READY\n');
for (let i = 0; ; i++) {
  const key = `${prefix}-${i}`;
  const { schedule } = await store.putSchedule({ draft: draft({ key }), nextFireAt: T0 + i, now: T0 + i });
  await store.insertRuns([runInsert({ schedule, scheduledFor: T0 + i })], T0 + i);
  // On Linux, writes to a pipe are synchronous: the line is in the pipe before the next write starts.
  process.stdout.write(`ACK ${key}\n`);
}
