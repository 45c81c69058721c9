// `punctual doctor` never ticks what it did not see pass: the service check really connects (GET /readyz,
// at PUNCTUAL_URL when set), nothing answering is a warning, a foreign answer a failure; a check that could
// not run is shown as not run; and a relative SQLite path is resolved against the folder doctor runs in, as
// serve does, with the path and the reason printed when no file is there.

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { doctor, type Check } from '../src/cli/commands/doctor.js';
import { migrate } from '../src/cli/commands/migrate.js';
import type { CliIo } from '../src/cli/io.js';

let dir: string;
let servers: Server[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'punctual-doctor-'));
  servers = [];
});
afterEach(async () => {
  await Promise.all(servers.map((s) => new Promise((done) => s.close(done))));
  rmSync(dir, { recursive: true, force: true });
});

async function run(args: Parameters<typeof doctor>[0]) {
  const out: string[] = [];
  const io: CliIo = {
    stdout: (t) => void out.push(t),
    stderr: (t) => void out.push(t),
    now: () => Date.parse('2026-01-05T09:00:00Z'),
  };
  const code = await doctor(args, io);
  return { code, out: out.join('') };
}

async function checks(args: Parameters<typeof doctor>[0]): Promise<{ code: number; checks: Check[] }> {
  const r = await run({ ...args, json: true });
  return { code: r.code, checks: (JSON.parse(r.out) as { checks: Check[] }).checks };
}

const find = (cs: Check[], name: string): Check | undefined => cs.find((c) => c.name === name);

/** An HTTP server on a free port answering every request with this status and body; returns its URL. */
async function answering(status: number, body: unknown, seen: string[] = []): Promise<string> {
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A port nothing listens on: one a server just released. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}

describe('the service check', () => {
  it('warns, never ticks, when nothing answers at the configured address', async () => {
    const port = await freePort();
    const env = { PUNCTUAL_DATABASE_PATH: join(dir, 'p.db'), PUNCTUAL_PORT: String(port) };
    const r = await run({ env });
    const line = r.out.split('\n').find((l) => l.includes(' service: '));
    expect(line).toBe(
      `! service: nothing answers at http://127.0.0.1:${port} (from PUNCTUAL_HOST and PUNCTUAL_PORT): ` +
        'is punctual serve running there?',
    );
  });

  it('connects to PUNCTUAL_URL and ticks only when /readyz answers ready', async () => {
    const seen: string[] = [];
    const url = await answering(200, { status: 'ready' }, seen);
    const env = { PUNCTUAL_DATABASE_PATH: join(dir, 'p.db'), PUNCTUAL_PORT: '1', PUNCTUAL_URL: `${url}/` };
    const r = await checks({ env });
    expect(seen).toEqual(['GET /readyz']);
    expect(find(r.checks, 'service')).toMatchObject({ status: 'ok' });
    expect(find(r.checks, 'service')?.message).toMatch(new RegExp(`^${url} answers /readyz: ready \\(`));
  });

  it('warns with the reason when the service is not ready', async () => {
    const url = await answering(503, {
      error: { code: 'NOT_READY', message: 'the database does not answer' },
    });
    const r = await checks({ env: { PUNCTUAL_DATABASE_PATH: join(dir, 'p.db'), PUNCTUAL_URL: url } });
    expect(find(r.checks, 'service')).toEqual({
      name: 'service',
      status: 'warn',
      message: `${url} answers /readyz: not ready: the database does not answer`,
    });
  });

  it('fails when something else answers there', async () => {
    const url = await answering(404, { message: 'Not Found' });
    const r = await checks({ env: { PUNCTUAL_DATABASE_PATH: join(dir, 'p.db'), PUNCTUAL_URL: url } });
    expect(find(r.checks, 'service')).toMatchObject({ status: 'fail' });
    expect(find(r.checks, 'service')?.message).toContain('answers /readyz with 404: not a Punctual service');
    expect(r.code).toBe(1);
  });

  it('does not run with PUNCTUAL_PORT=0 and no PUNCTUAL_URL, and says why', async () => {
    const r = await checks({ env: { PUNCTUAL_DATABASE_PATH: join(dir, 'p.db'), PUNCTUAL_PORT: '0' } });
    expect(find(r.checks, 'service')).toMatchObject({ status: 'skipped' });
    expect(find(r.checks, 'service')?.message).toContain('set PUNCTUAL_URL');
  });
});

describe('the SQLite path', () => {
  it('resolves a relative path against the folder doctor runs in, as serve does', async () => {
    // serve run in `dir` with no PUNCTUAL_DATABASE_PATH uses dir/data/punctual.db.
    const path = join(dir, 'data', 'punctual.db');
    expect((await migrateAt(path)).code).toBe(0);
    const here = await checks({ env: { PUNCTUAL_PORT: '0' }, cwd: dir });
    expect(find(here.checks, 'database')).toMatchObject({ status: 'ok' });
    expect(find(here.checks, 'database')?.message).toContain(`SQLite ${path} opens`);

    // From another folder, it names the path it looked at and why.
    const elsewhere = join(dir, 'elsewhere');
    const there = await checks({ env: { PUNCTUAL_PORT: '0' }, cwd: elsewhere });
    expect(find(there.checks, 'database')).toEqual({
      name: 'database',
      status: 'fail',
      message:
        `no database file at ${join(elsewhere, 'data', 'punctual.db')} (PUNCTUAL_DATABASE_PATH unset: the ` +
        `default ./data/punctual.db, relative, so resolved against the current folder ${elsewhere} as serve ` +
        'does); punctual migrate or serve creates it',
    });
  });

  it('says a service that answers uses another database when the file is not where doctor looked', async () => {
    const url = await answering(200, { status: 'ready' });
    const r = await checks({ env: { PUNCTUAL_DATABASE_PATH: 'db/p.db', PUNCTUAL_URL: url }, cwd: dir });
    expect(find(r.checks, 'database')?.message).toContain(`no database file at ${join(dir, 'db', 'p.db')}`);
    expect(find(r.checks, 'database')?.message).toContain('PUNCTUAL_DATABASE_PATH=db/p.db, relative');
    expect(find(r.checks, 'database')?.message).toContain('a service answers all the same');
  });
});

async function migrateAt(path: string) {
  const out: string[] = [];
  const io: CliIo = { stdout: (t) => void out.push(t), stderr: (t) => void out.push(t), now: () => 0 };
  return { code: await migrate({ env: { PUNCTUAL_DATABASE_PATH: path } }, io), out: out.join('') };
}
