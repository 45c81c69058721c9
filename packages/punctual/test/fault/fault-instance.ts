// One instance process of the multi-process fault test: a scheduler on the shared PostgreSQL schema whose
// handler appends every delivery to a log file (synchronously, so a kill -9 right after cannot lose the line)
// with the time it started (epoch ms) and then works for a short random time, so kills land mid-delivery. Its clock may be skewed on purpose.
// Usage: fault-instance.ts <pgUrl> <schema> <instanceName> <logFile> <skewMs>

import { appendFileSync } from 'node:fs';
import { createScheduler, offsetClock, systemClock } from '../../src/index.js';
import { postgresStore } from '../../src/store/postgres/postgres-store.js';

const [url, schema, name, logFile, skew] = process.argv.slice(2);
if (!url || !schema || !name || !logFile)
  throw new Error('usage: fault-instance.ts <pgUrl> <schema> <name> <logFile> <skewMs>');
const skewMs = Number(skew ?? 0);

const store = postgresStore({ connectionString: url, schema, poolSize: 4, onError: () => {} });
const scheduler = createScheduler({
  store,
  // A clock that is wrong by skewMs: the engine corrects it by the offset it measures to the database.
  clock: offsetClock(systemClock, () => skewMs),
  concurrency: 20,
  leaseMs: 4000,
  reapIntervalMs: 1000,
  maxSleepMs: 2000,
  notFiredGraceMs: 10_000,
  workerId: `${name}:${process.pid}`,
});
scheduler.handle('record', async (ctx) => {
  appendFileSync(
    logFile,
    `${ctx.run.id} ${ctx.run.attempt} ${ctx.run.occurrenceId} ${name}:${process.pid} ${Date.now()}\n`,
  );
  await new Promise((r) => setTimeout(r, 5 + Math.floor(Math.random() * 60)));
});
scheduler.on('error', () => {}); // connection loss during the database restart: the engine retries
scheduler.on('database:available', ({ kind, durationMs }) =>
  process.stdout.write(`outage ${name} ${kind} ${durationMs}\n`),
);
// An instance restarted while the database restarts waits for it, as a supervised service would.
for (let delay = 200; ; delay = Math.min(delay * 2, 2000)) {
  try {
    await scheduler.start();
    break;
  } catch {
    await new Promise((r) => setTimeout(r, delay));
  }
}
process.stdout.write(`ready ${name} ${process.pid} offset=${scheduler.clockOffsetMs}\n`);
process.on('SIGTERM', () => {
  void scheduler.close().then(() => process.exit(0));
});
