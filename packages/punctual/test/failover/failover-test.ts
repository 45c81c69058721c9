// The PostgreSQL failover test. It starts its own primary and synchronous standby (pg-cluster.ts), puts a TCP
// proxy in front of them as the one address every instance uses (tcp-proxy.ts), starts several instance
// processes (the fault test's) under every-second schedules, and keeps writing schedules through the proxy.
// In the middle of the window it stops the primary hard, repoints the proxy at the standby (read-only for
// --read-only-ms, as when the address moves before the promotion), then promotes it. At the end it checks:
// every schedule write acknowledged before (and after) the failover exists, every occurrence in the window has
// exactly one run, no run is unfinished, no instance exited, each engine reported the outage with its length,
// and every instance delivered again after the promotion. It prints the figures, with the recovery time, and
// exits non-zero otherwise.
//
//   npx tsx packages/punctual/test/failover/failover-test.ts [--seconds 40] [--schedules 200] [--instances 3]
//     [--read-only-ms 3000]
// Needs the PostgreSQL server binaries (PUNCTUAL_PG_BIN, default /usr/lib/postgresql/15/bin) and, as root,
// the `postgres` OS user. Never touches any other cluster.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createScheduler } from '../../src/index.js';
import { postgresStore } from '../../src/store/postgres/postgres-store.js';
import { PgPair } from './pg-cluster.js';
import { checkRuns, deliveryTimes, waitUntilFinal } from './run-checks.js';
import { TcpProxy } from './tcp-proxy.js';

const arg = (name: string, dflt: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const SECONDS = arg('seconds', 40);
const SCHEDULES = arg('schedules', 200);
const INSTANCES = arg('instances', 3);
/** How long the address points at the standby before it is promoted: writes meet a read-only server. */
const READ_ONLY_MS = arg('read-only-ms', 3000);
const started = Date.now();
const log = (msg: string) => console.log(`[failover ${new Date().toISOString().slice(11, 23)}] ${msg}`);

const pair = new PgPair();
const dir = mkdtempSync(join(tmpdir(), 'punctual-failover-logs-'));
const children = new Map<string, ChildProcess>();
let proxy: TcpProxy | undefined;
let failed = true;
try {
  await pair.create();
  log(`primary :${pair.primary.port}, synchronous standby :${pair.standby.port}`);
  proxy = new TcpProxy(pair.primary.port);
  const url = `postgres://postgres@127.0.0.1:${await proxy.listen()}/postgres`;
  const schema = 'failover';
  const instanceScript = fileURLToPath(new URL('../fault/fault-instance.ts', import.meta.url));

  // ── schedules: every second inside one window, every missed occurrence run (runAll) ─────────────
  const setup = createScheduler({
    store: postgresStore({ connectionString: url, schema }),
    clockSync: { enabled: false },
  });
  setup.handle('record', () => {});
  await setup.migrate();
  const windowStart = Math.ceil((Date.now() + 8000) / 1000) * 1000;
  const windowEnd = windowStart + SECONDS * 1000;
  const inputs = Array.from({ length: SCHEDULES }, (_, i) => ({
    key: `s${i}`,
    spec: '@every 1s',
    startAt: windowStart + (i % 1000),
    endAt: windowEnd - 1,
    target: { handler: 'record' },
    policies: {
      misfire: 'runAll' as const,
      catchupWindowMs: 3_600_000,
      maxCatchup: 10_000,
      retry: { maxAttempts: 20, delayMs: 200 },
    },
  }));
  await setup.putMany(inputs);
  let expected = 0;
  for (const s of inputs) expected += Math.floor((windowEnd - 1 - s.startAt) / 1000) + 1;
  log(`${SCHEDULES} schedules, ${expected} occurrences in ${SECONDS} s, ${INSTANCES} instances`);

  // ── instances ─────────────────────────────────────────────────────────────────────────────────
  const outages: string[] = []; // what each engine reported: `<instance> <kind> <length>`
  for (let i = 0; i < INSTANCES; i++) {
    const name = `i${i}`;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', instanceScript, url, schema, name, join(dir, `deliveries-${name}.log`), '0'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    child.stdout!.on('data', (b: Buffer) => {
      for (const line of b.toString().split('\n')) {
        if (!line.trim()) continue;
        log(line.trim());
        const [word, , kind, ms] = line.trim().split(' ');
        if (word === 'outage') outages.push(`${name} ${kind} ${ms} ms`);
      }
    });
    children.set(name, child);
  }
  const exited: string[] = [];
  for (const [name, c] of children) c.once('exit', () => exited.push(name));

  // ── a writer: one schedule put at a time through the proxy; an acknowledged one must survive ────
  const acked: string[] = [];
  let writes = 0;
  let writing = true;
  let failoverAt = Infinity;
  let firstAckAfter = Infinity;
  let promotedAt = Infinity;
  const writer = (async () => {
    for (let n = 0; writing; n++) {
      const key = `w${n}`;
      writes++;
      try {
        await setup.put({
          key,
          spec: '@every 1h',
          startAt: windowEnd + 3_600_000,
          target: { handler: 'record' },
        });
        acked.push(key);
        if (Date.now() > promotedAt && firstAckAfter === Infinity) firstAckAfter = Date.now();
      } catch {
        await new Promise((r) => setTimeout(r, 100)); // not acknowledged: it need not exist
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  })();

  // ── the failover, in the middle of the window ───────────────────────────────────────────────────
  await new Promise((r) => setTimeout(r, windowStart - Date.now() + (SECONDS * 1000) / 2));
  const ackedBefore = acked.length;
  failoverAt = Date.now();
  log('stopping the primary (immediate)');
  pair.crashPrimary();
  // The address moves before the promotion (as it does when the old primary comes back as a standby):
  // for a while every write meets a read-only server (SQLSTATE 25006).
  proxy.repoint(pair.standby.port);
  await new Promise((r) => setTimeout(r, READ_ONLY_MS));
  pair.promoteStandby();
  promotedAt = Date.now();
  log(
    `proxy repointed, standby read-only for ${READ_ONLY_MS} ms, promoted after ${promotedAt - failoverAt} ms`,
  );

  await new Promise((r) => setTimeout(r, windowEnd - Date.now()));
  writing = false;
  await writer;
  log(`window over; ${acked.length}/${writes} writes acknowledged; waiting for every run to finish`);

  // ── wait until every occurrence is final (reading the new primary directly) ─────────────────────
  const client = new pg.Client({
    host: '127.0.0.1',
    port: pair.standby.port,
    user: 'postgres',
    database: 'postgres',
  });
  await client.connect();
  await waitUntilFinal(client, schema, expected);
  const exitedDuringTest = [...exited];
  for (const c of children.values()) c.kill('SIGTERM');
  await Promise.all(
    [...children.values()].map(
      (c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r))),
    ),
  );
  await setup.close();

  // ── verify ──────────────────────────────────────────────────────────────────────────────────────
  const checked = await checkRuns(client, schema, expected, dir);
  const stored = await client.query(`SELECT key FROM ${schema}.schedules WHERE key LIKE 'w%'`);
  await client.end();
  const storedKeys = new Set(stored.rows.map((r) => r.key as string));
  const lostWrites = acked.filter((k) => !storedKeys.has(k));
  const firstAfter = new Map<string, number>();
  for (const [name, times] of deliveryTimes(dir)) {
    const after = times.filter((t) => t > promotedAt);
    if (after.length > 0) firstAfter.set(name, Math.min(...after));
  }
  const notRecovered = [...children.keys()].filter((n) => !firstAfter.has(n));
  // Recovery: from the moment the database accepts writes again to the last instance delivering again.
  const recoveryMs = Math.max(
    ...[...firstAfter.values()].map((t) => t - promotedAt),
    firstAckAfter - promotedAt,
  );
  const outageMs = recoveryMs + promotedAt - failoverAt;

  const figures = {
    schedules: SCHEDULES,
    instances: INSTANCES,
    seconds: SECONDS,
    ...checked.figures,
    writesAcknowledged: acked.length,
    writesAcknowledgedBeforeFailover: ackedBefore,
    writesAttempted: writes,
    acknowledgedWritesLost: lostWrites.length,
    engineOutagesReported: outages,
    instancesExited: exitedDuringTest.length,
    instancesNotRecovered: notRecovered.length,
    readOnlyMs: READ_ONLY_MS,
    stopToPromotedMs: promotedAt - failoverAt,
    firstWriteAckAfterPromotionMs: firstAckAfter - promotedAt,
    firstDeliveryAfterPromotionMs: Object.fromEntries([...firstAfter].map(([n, t]) => [n, t - promotedAt])),
    recoverySeconds: Number((recoveryMs / 1000).toFixed(2)),
    outageSeconds: Number((outageMs / 1000).toFixed(2)),
    testSeconds: Number(((Date.now() - started) / 1000).toFixed(1)),
  };
  console.log(JSON.stringify(figures, null, 2));
  failed =
    !checked.ok ||
    lostWrites.length > 0 ||
    exitedDuringTest.length > 0 ||
    [...children.keys()].some((n) => !outages.some((o) => o.startsWith(`${n} `))) ||
    notRecovered.length > 0 ||
    firstAckAfter === Infinity;
} catch (e) {
  console.error(e);
} finally {
  for (const c of children.values()) if (c.exitCode === null) c.kill('SIGKILL');
  await proxy?.close();
  if (failed) {
    pair.keepLogs(dir);
    log(`FAILED: the servers' and the deliveries' logs are kept in ${dir}`);
  } else rmSync(dir, { recursive: true, force: true });
  pair.remove();
}
process.exit(failed ? 1 : 0);
