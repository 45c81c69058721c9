// HTTP load on one instance: the service in-process on SQLite in a temporary folder (port 0, 127.0.0.1
// only), then a fixed number of requests at a fixed concurrency over keep-alive connections, for
// `PUT /v1/schedules/{key}` (distinct keys) and `GET /v1/runs?limit=50` (after a few hundred triggered runs
// were delivered). Prints requests/s and latency percentiles as a Markdown table and writes
// bench/results/<date>-http.md. `npm run bench:http` (or `npx tsx bench/http-load.ts [--quick]`).

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import { loadConfig } from '../packages/server/src/config.js';
import { createService } from '../packages/server/src/service.js';
import { summary, table } from './stats.js';

const quick = process.argv.includes('--quick');
const COUNT = quick ? 1000 : 5000;
const CONCURRENCY = 32;
const TRIGGERS = quick ? 100 : 300;

const dir = mkdtempSync(join(tmpdir(), 'punctual-bench-http-'));
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

const config = loadConfig({
  PUNCTUAL_DATABASE_PATH: join(dir, 'punctual.db'),
  PUNCTUAL_HOST: '127.0.0.1',
  PUNCTUAL_PORT: '0',
  PUNCTUAL_ALLOW_PRIVATE_TARGETS: '127.0.0.1/32',
  // The per-tenant rate limit would measure itself, not the service.
  PUNCTUAL_DEFAULT_RATE_LIMIT: '100000',
  PUNCTUAL_SHUTDOWN_GRACE: '2s',
});
const service = await createService(config, { logger: pino({ level: 'silent' }), processMetrics: false });
const { url } = await service.start();
const { port } = new URL(url);
const key = service.bootstrap!.apiKey;
const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

/** One request; resolves with its status and latency in ms. */
function call(method: string, path: string, body?: unknown): Promise<{ status: number; ms: number }> {
  const data = body === undefined ? undefined : JSON.stringify(body);
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: Number(port),
        method,
        path,
        agent,
        headers: {
          authorization: `Bearer ${key}`,
          ...(data === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) }),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0 }));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

/** `count` requests, `CONCURRENCY` at a time; the route's row of the table. */
async function load(
  route: string,
  count: number,
  make: (i: number) => { method: string; path: string; body?: unknown },
): Promise<Record<string, string | number>> {
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) {
        const r = make(next++);
        const res = await call(r.method, r.path, r.body);
        latencies.push(res.ms);
        if (res.status < 200 || res.status >= 300) errors++;
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const s = summary(latencies);
  return {
    route,
    requests: count,
    concurrency: CONCURRENCY,
    'requests/s': Math.round(count / seconds),
    'p50 ms': s.p50.toFixed(2),
    'p99 ms': s.p99.toFixed(2),
    'max ms': s.max.toFixed(2),
    'non-2xx': errors,
  };
}

const rows: Record<string, string | number>[] = [];
try {
  rows.push(
    await load('PUT /v1/schedules/{key}', COUNT, (i) => ({
      method: 'PUT',
      path: `/v1/schedules/load-${i}`,
      body: { spec: '@every 1h', target: { webhook: { url: hook } }, payload: { i } },
    })),
  );

  // Runs to list: triggered now, delivered to the receiver; the listing is measured once they settled.
  let succeeded = 0;
  const allDelivered = new Promise<void>((resolve) => {
    const off = service.scheduler.on('run:succeeded', () => {
      if (++succeeded === TRIGGERS) {
        off();
        resolve();
      }
    });
  });
  await load(`trigger (setup, ${TRIGGERS})`, TRIGGERS, (i) => ({
    method: 'POST',
    path: `/v1/schedules/load-${i}/trigger`,
  }));
  await allDelivered;

  rows.push(await load('GET /v1/runs?limit=50', COUNT, () => ({ method: 'GET', path: '/v1/runs?limit=50' })));
} finally {
  agent.destroy();
  await service.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
}

const md = table(rows);
const date = new Date().toISOString().slice(0, 10);
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const report = [
  `# HTTP load, one instance (${date})`,
  '',
  `SQLite (synchronous FULL) in a temporary folder; ${COUNT} requests per route, ${CONCURRENCY} at a time, over ` +
    `keep-alive connections to 127.0.0.1; client and service in one process. \`GET /v1/runs\` lists ` +
    `${TRIGGERS} succeeded runs, 50 per page. Machine: ${machine}.`,
  '',
  md,
  '',
].join('\n');
console.log(md);
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
const file = new URL(`./results/${date}-http${quick ? '-quick' : ''}.md`, import.meta.url);
writeFileSync(file, report);
console.log(`\nwritten to bench/results/${date}-http${quick ? '-quick' : ''}.md`);
