// The admin commands called as functions on a real SQLite file (and PostgreSQL when PUNCTUAL_TEST_PG_URL is
// set): migrate reports its versions, tenants and keys change the database (a key is printed once and only
// its hash is stored), and doctor's checks pass, warn and fail as documented, with exit codes.

import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { sqliteStore } from 'punctual';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { doctor, type Check } from '../src/cli/commands/doctor.js';
import { keysCreate, keysList, keysRevoke } from '../src/cli/commands/keys.js';
import { migrate } from '../src/cli/commands/migrate.js';
import { tenantsCreate, tenantsList, tenantsSetState } from '../src/cli/commands/tenants.js';
import type { CliIo } from '../src/cli/io.js';

let dir: string;
let env: Record<string, string>;
let path: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'punctual-cli-admin-'));
  path = join(dir, 'data', 'punctual.db');
  // Port 1: nothing listens there, so doctor's probe of the service finds nothing.
  env = { PUNCTUAL_DATABASE_PATH: path, PUNCTUAL_PORT: '1' };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function fakeIo(now = () => Date.parse('2026-01-05T09:00:00Z')) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), now };
  return { io, out: () => out.join(''), err: () => err.join('') };
}

/** Runs a command with a fresh fake io; returns its exit code and output. */
async function run<A>(cmd: (args: A, io: CliIo) => Promise<number>, args: A) {
  const f = fakeIo();
  const code = await cmd(args, f.io);
  return { code, out: f.out(), err: f.err() };
}

const refuse = () => Promise.reject(new Error('nothing listens'));

async function doctorJson(e: Record<string, string> = env) {
  const r = await run(doctor, { env: e, json: true, fetch: refuse as typeof fetch });
  return { code: r.code, ...(JSON.parse(r.out) as { ok: boolean; checks: Check[] }) };
}

const check = (checks: Check[], name: string) => checks.find((c) => c.name === name);

/** The SQLite schema version this build migrates to, as the store reports it. */
async function latestSqliteVersion(): Promise<number> {
  const store = sqliteStore({ path: ':memory:' });
  try {
    return (await store.schemaVersion()).expected;
  } finally {
    await store.close();
  }
}

describe('punctual migrate', () => {
  it('migrates a fresh file to the latest version, then has nothing to apply', async () => {
    const latest = await latestSqliteVersion();
    const first = await run(migrate, { env });
    expect(first).toMatchObject({ code: 0, err: '' });
    expect(first.out).toBe(`punctual: migrated SQLite ${path} from schema version 0 to ${latest}\n`);
    const again = await run(migrate, { env, json: true });
    expect(JSON.parse(again.out)).toEqual({ database: `SQLite ${path}`, from: latest, to: latest });
  });

  it('refuses a bad configuration with exit code 2, naming the setting', async () => {
    const r = await run(migrate, { env: { ...env, PUNCTUAL_PORT: 'abc' } });
    expect(r.code).toBe(2);
    expect(r.err).toContain('punctual: CONFIG_INVALID:');
    expect(r.err).toContain('PUNCTUAL_PORT must be an integer');
    const j = await run(migrate, { env: { ...env, PUNCTUAL_PORT: 'abc' }, json: true });
    expect(JSON.parse(j.out).error.code).toBe('CONFIG_INVALID');
  });

  it('refuses a database migrated by a newer Punctual (SCHEMA_TOO_NEW) and changes nothing', async () => {
    await run(migrate, { env });
    const db = new Database(path);
    db.prepare('INSERT INTO punctual_migrations (version, name) VALUES (999, ?)').run('future');
    db.close();
    const r = await run(migrate, { env });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^punctual: SCHEMA_TOO_NEW: /);
  });
});

describe('punctual tenants', () => {
  it('creates with quotas and a webhook secret, lists without secrets, disables and enables', async () => {
    const created = await run(tenantsCreate, {
      env,
      name: 'acme',
      maxSchedules: '10',
      requestsPerSecond: '2.5',
    });
    expect(created).toMatchObject({ code: 0, err: '' });
    expect(created.out).toContain('created the tenant "acme"');
    expect(created.out).toContain('punctual keys create --tenant acme');

    const store = sqliteStore({ path });
    const acme = await store.getTenant('acme');
    await store.close();
    expect(acme?.webhookSecret).toMatch(/^whsec_/);
    expect(acme?.quotas).toEqual({ maxSchedules: 10, maxRunsPerMinute: null, requestsPerSecond: 2.5 });
    expect(created.out).not.toContain(acme!.webhookSecret);

    const list = await run(tenantsList, { env, json: true });
    expect(list.out).not.toContain('whsec_');
    expect(JSON.parse(list.out).items).toEqual([
      expect.objectContaining({ name: 'acme', state: 'active', quotas: acme!.quotas }),
    ]);
    const human = await run(tenantsList, { env });
    expect(human.out.split('\n')[0]).toMatch(/^NAME\s+STATE\s+KEYS\s+MAX SCHEDULES/);
    expect(human.out).toMatch(/\nacme\s+active\s+0\s+10\s+-\s+2\.5\s/);

    const off = await run(tenantsSetState, { env, name: 'acme', state: 'disabled' });
    expect(off.out).toContain('disabled the tenant "acme"');
    expect(JSON.parse((await run(tenantsList, { env, json: true })).out).items[0].state).toBe('disabled');
    await run(tenantsSetState, { env, name: 'acme', state: 'active' });
    expect(JSON.parse((await run(tenantsList, { env, json: true })).out).items[0].state).toBe('active');
  });

  it('answers TENANT_EXISTS, TENANT_INVALID, TENANT_NOT_FOUND and bad quotas with exit codes', async () => {
    await run(tenantsCreate, { env, name: 'acme' });
    expect(await run(tenantsCreate, { env, name: 'acme' })).toMatchObject({ code: 1 });
    expect((await run(tenantsCreate, { env, name: 'acme' })).err).toMatch(/^punctual: TENANT_EXISTS: /);
    expect((await run(tenantsCreate, { env, name: 'Not Valid' })).err).toMatch(/^punctual: TENANT_INVALID: /);
    const missing = await run(tenantsSetState, { env, name: 'nope', state: 'disabled', json: true });
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.out).error.code).toBe('TENANT_NOT_FOUND');
    const badQuota = await run(tenantsCreate, { env, name: 'globex', maxSchedules: 'ten' });
    expect(badQuota.code).toBe(2);
    expect(badQuota.err).toContain('ARGUMENT_INVALID: --max-schedules must be a whole number');
  });
});

describe('punctual keys', () => {
  it('prints a new key once, stores only its hash, lists prefixes and revokes by id', async () => {
    await run(tenantsCreate, { env, name: 'acme' });
    const created = await run(keysCreate, { env, tenant: 'acme', name: 'ci', json: true });
    expect(created.code).toBe(0);
    const { id, prefix, key, name } = JSON.parse(created.out) as Record<string, string>;
    expect(key).toMatch(/^pk_[A-Za-z0-9]{32}$/);
    expect(prefix).toBe(key!.slice(0, 11));
    expect(name).toBe('ci');

    const human = await run(keysCreate, { env, tenant: 'acme' });
    const second = /\n {2}(pk_[A-Za-z0-9]{32})\n/.exec(human.out)?.[1];
    expect(second).toBeDefined();
    expect(human.out).toContain('shown this once');

    const store = sqliteStore({ path });
    const found = await store.findApiKey(createHash('sha256').update(key!).digest('hex'));
    const raw = JSON.stringify(await store.listApiKeys('acme'));
    await store.close();
    expect(found?.key.id).toBe(id);
    expect(raw).not.toContain(key);
    expect(raw).not.toContain(second);

    const list = await run(keysList, { env, tenant: 'acme' });
    expect(list.out).not.toContain(key);
    expect(list.out).toMatch(new RegExp(`\\n${id}\\s+${prefix}\\.\\.\\.\\s+ci\\s+`));
    const listed = JSON.parse((await run(keysList, { env, tenant: 'acme', json: true })).out).items;
    expect(listed).toHaveLength(2);
    expect(Object.keys(listed[0]).sort()).toEqual([
      'createdAt',
      'id',
      'lastUsedAt',
      'name',
      'prefix',
      'revokedAt',
    ]);

    const revoked = await run(keysRevoke, { env, tenant: 'acme', id: id! });
    expect(revoked.out).toContain(`revoked API key ${id}`);
    const after = JSON.parse((await run(keysList, { env, tenant: 'acme', json: true })).out).items;
    expect(after.find((k: { id: string }) => k.id === id).revokedAt).not.toBeNull();
    const twice = await run(keysRevoke, { env, tenant: 'acme', id: id! });
    expect(twice.code).toBe(1);
    expect(twice.err).toMatch(/^punctual: API_KEY_NOT_FOUND: /);
  });

  it('answers TENANT_NOT_FOUND for an unknown tenant', async () => {
    await run(migrate, { env });
    expect((await run(keysCreate, { env, tenant: 'nope' })).err).toMatch(/^punctual: TENANT_NOT_FOUND: /);
    expect((await run(keysList, { env, tenant: 'nope' })).code).toBe(1);
  });
});

describe('punctual doctor', () => {
  it('fails when the SQLite file does not exist, without creating it', async () => {
    const r = await doctorJson();
    expect(r.code).toBe(1);
    expect(r.ok).toBe(false);
    expect(check(r.checks, 'configuration')?.status).toBe('ok');
    expect(check(r.checks, 'database')).toMatchObject({ status: 'fail' });
    expect(check(r.checks, 'database')?.message).toContain(`no database file at ${path}`);
    expect(check(r.checks, 'database')?.message).toContain('punctual migrate');
    // What needs the database did not run, and says so.
    for (const name of ['schema', 'clock', 'tenants']) expect(check(r.checks, name)?.status).toBe('skipped');
    expect((await import('node:fs')).existsSync(path)).toBe(false);
  });

  it('tells to run punctual migrate on a SQLite file that was never migrated, and writes nothing', async () => {
    mkdirSync(dirname(path), { recursive: true });
    new Database(path).close();
    const r = await doctorJson();
    expect(r.code).toBe(1);
    expect(check(r.checks, 'database')?.status).toBe('ok');
    expect(check(r.checks, 'schema')).toEqual({
      name: 'schema',
      status: 'fail',
      message: `not migrated yet (this Punctual expects version ${await latestSqliteVersion()}): run punctual migrate`,
    });
    expect(check(r.checks, 'tenants')).toMatchObject({ status: 'skipped' });
    const human = await run(doctor, { env, fetch: refuse as typeof fetch });
    expect(human.out).toContain('✗ schema: not migrated yet');
    const db = new Database(path, { readonly: true });
    expect(db.prepare('SELECT name FROM sqlite_master').pluck().all()).toEqual([]);
    db.close();
  });

  it('fails on a SQLite file with damaged pages (SQLite integrity check), whatever the other checks say', async () => {
    await run(tenantsCreate, { env, name: 'acme' });
    await run(keysCreate, { env, tenant: 'acme' });
    const db = new Database(path);
    db.exec('CREATE TABLE filler (v TEXT)');
    const insert = db.prepare('INSERT INTO filler VALUES (?)');
    for (let i = 0; i < 500; i++) insert.run('x'.repeat(500));
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    expect((await doctorJson()).ok).toBe(true);
    // 16 KiB of pages overwritten in the middle of the file.
    const fd = openSync(path, 'r+');
    writeSync(fd, Buffer.alloc(16_384, 0xa5), 0, 16_384, Math.floor(statSync(path).size / 8192) * 4096);
    closeSync(fd);
    const r = await doctorJson();
    expect(r.code).toBe(1);
    expect(r.ok).toBe(false);
    expect(check(r.checks, 'integrity')).toMatchObject({ status: 'fail' });
    expect(check(r.checks, 'integrity')?.message).toMatch(/integrity_check found damage .*restore/);
    const human = await run(doctor, { env, fetch: refuse as typeof fetch });
    expect(human.out).toContain('✗ integrity: SQLite integrity_check found damage');
    expect(human.out).not.toContain('all checks passed');
  });

  it('passes on a migrated database with a tenant and a key, and prints ✓ lines', async () => {
    await run(tenantsCreate, { env, name: 'acme' });
    await run(keysCreate, { env, tenant: 'acme' });
    const ready = (async () => new Response('{"status":"ready"}', { status: 200 })) as typeof fetch;
    const r = await run(doctor, { env, json: true, fetch: ready }).then((x) => ({
      code: x.code,
      ...(JSON.parse(x.out) as { ok: boolean; checks: Check[] }),
    }));
    expect(r.code).toBe(0);
    expect(r.ok).toBe(true);
    expect(r.checks.map((c) => c.name)).toEqual([
      'configuration',
      'database',
      'integrity',
      'schema',
      'clock',
      'tenants',
      'service',
      'webhooks',
    ]);
    // SQLite has no server clock to compare with: that check did not run, and is no tick.
    expect(r.checks.filter((c) => c.status !== 'ok').map((c) => [c.name, c.status])).toEqual([
      ['clock', 'skipped'],
    ]);
    expect(check(r.checks, 'schema')?.message).toBe(`version ${await latestSqliteVersion()}, current`);

    const human = await run(doctor, { env, fetch: ready });
    const lines = human.out.trimEnd().split('\n');
    expect(lines.slice(0, -1).filter((l) => !l.startsWith('✓ '))).toEqual([
      '- clock: not run: SQLite runs on this machine: no database server clock to compare with',
    ]);
    expect(lines.at(-1)).toBe('punctual doctor: no check failed (1 check not run)');
  });

  it('fails on a schema behind or newer than this build, and warns with no tenant', async () => {
    await run(migrate, { env });
    const r = await doctorJson();
    expect(r.code).toBe(0);
    expect(check(r.checks, 'tenants')?.status).toBe('warn');

    const latest = await latestSqliteVersion();
    const db = new Database(path);
    db.prepare('DELETE FROM punctual_migrations WHERE version = ?').run(latest);
    // The version before (migration numbers are reserved per change, so it may skip one).
    const previous = db.prepare('SELECT MAX(version) FROM punctual_migrations').pluck().get() as number;
    db.close();
    const behind = await doctorJson();
    expect(behind.code).toBe(1);
    expect(check(behind.checks, 'schema')).toEqual({
      name: 'schema',
      status: 'fail',
      message: `version ${previous} is behind this Punctual's ${latest}: run punctual migrate`,
    });

    const db2 = new Database(path);
    db2
      .prepare('INSERT INTO punctual_migrations (version, name) VALUES (?, ?), (?, ?)')
      .run(latest, 'back', latest + 1, 'future');
    db2.close();
    const newer = await doctorJson();
    expect(newer.code).toBe(1);
    expect(check(newer.checks, 'schema')?.message).toContain('SCHEMA_TOO_NEW');
  });

  it('reports the configuration problems and the webhook allow-list', async () => {
    const bad = await doctorJson({ ...env, PUNCTUAL_CONCURRENCY: '0' });
    expect(bad.code).toBe(1);
    expect(bad.checks.map((c) => [c.name, c.status])).toEqual([
      ['configuration', 'fail'],
      ...['database', 'schema', 'clock', 'tenants', 'service', 'webhooks'].map((n) => [n, 'skipped']),
    ]);
    expect(bad.checks[0]?.message).toContain('PUNCTUAL_CONCURRENCY must be an integer between 1 and 1000');

    await run(tenantsCreate, { env, name: 'acme' });
    await run(keysCreate, { env, tenant: 'acme' });
    const loopback = await doctorJson({ ...env, PUNCTUAL_ALLOW_PRIVATE_TARGETS: '127.0.0.0/8' });
    expect(check(loopback.checks, 'webhooks')).toMatchObject({ status: 'ok' });
    expect(check(loopback.checks, 'webhooks')?.message).toContain('127.0.0.0/8');
    const meta = await doctorJson({ ...env, PUNCTUAL_ALLOW_PRIVATE_TARGETS: '10.0.0.0/8,169.254.0.0/16' });
    expect(check(meta.checks, 'webhooks')).toMatchObject({ status: 'warn' });
    expect(check(meta.checks, 'webhooks')?.message).toContain('169.254.169.254');
    const all = await doctorJson({ ...env, PUNCTUAL_ALLOW_PRIVATE_TARGETS: '0.0.0.0/0' });
    expect(check(all.checks, 'webhooks')?.message).toContain('any address');
    expect(all.code).toBe(0);
  });

  it("probes the configured service's /readyz", async () => {
    await run(migrate, { env });
    const seen: string[] = [];
    const ready = (async (url: string) => {
      seen.push(url);
      return new Response('{}', { status: 200 });
    }) as typeof fetch;
    const r = await run(doctor, { env: { ...env, PUNCTUAL_PORT: '9999' }, json: true, fetch: ready });
    expect(seen).toEqual(['http://127.0.0.1:9999/readyz']);
    const service = (JSON.parse(r.out) as { checks: Check[] }).checks.find((c) => c.name === 'service');
    expect(service).toMatchObject({ status: 'ok' });
    expect(service?.message).toContain('http://127.0.0.1:9999 answers /readyz: ready');
  });
});

const PG_URL = process.env.PUNCTUAL_TEST_PG_URL ?? '';

describe.skipIf(PG_URL === '')('on PostgreSQL', () => {
  const schema = `cli_admin_${process.pid}_${Date.now().toString(36)}`;
  const pgEnv = () => ({ PUNCTUAL_DATABASE_URL: PG_URL, PUNCTUAL_PG_SCHEMA: schema, PUNCTUAL_PORT: '1' });

  afterEach(async () => {
    const pg = (await import('pg')).default;
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  });

  it('migrates, manages tenants and keys, and measures the clock offset (warning above 1 s)', async () => {
    const notYet = await doctorJson(pgEnv());
    expect(check(notYet.checks, 'schema')).toMatchObject({ status: 'fail' });
    expect(check(notYet.checks, 'schema')?.message).toMatch(/^not migrated yet .*: run punctual migrate$/);
    expect((await run(migrate, { env: pgEnv() })).out).toMatch(/from schema version 0 to \d+/);
    await run(tenantsCreate, { env: pgEnv(), name: 'acme' });
    const created = JSON.parse((await run(keysCreate, { env: pgEnv(), tenant: 'acme', json: true })).out);
    expect(created.key).toMatch(/^pk_/);

    const f = fakeIo(() => Date.now());
    expect(await doctor({ env: pgEnv(), json: true, fetch: refuse as typeof fetch }, f.io)).toBe(0);
    const checks = (JSON.parse(f.out()) as { checks: Check[] }).checks;
    expect(check(checks, 'database')?.message).toContain(`(schema ${schema}) answers`);
    expect(check(checks, 'schema')).toMatchObject({
      status: 'ok',
      message: expect.stringMatching(/, current$/),
    });
    expect(check(checks, 'clock')).toMatchObject({ status: 'ok' });
    expect(check(checks, 'tenants')).toMatchObject({ status: 'ok' });

    // This machine's clock read 5 s ahead: the database server looks 5 s behind.
    const skewed = fakeIo(() => Date.now() + 5000);
    expect(await doctor({ env: pgEnv(), json: true, fetch: refuse as typeof fetch }, skewed.io)).toBe(0);
    const clock = check((JSON.parse(skewed.out()) as { checks: Check[] }).checks, 'clock');
    expect(clock?.status).toBe('warn');
    expect(clock?.message).toMatch(/offset to the database server -\d{4} ms, over 1000 ms/);
  });

  it('fails on a schema behind or newer than this build', async () => {
    await run(migrate, { env: pgEnv() });
    const current = await doctorJson(pgEnv());
    const latest = Number(/^version (\d+), current$/.exec(check(current.checks, 'schema')!.message)?.[1]);
    expect(latest).toBeGreaterThan(0);
    const pg = (await import('pg')).default;
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      const table = `"${schema}".punctual_migrations`;
      await client.query(`DELETE FROM ${table} WHERE version = $1`, [latest]);
      // The version before (migration numbers are reserved per change, so it may skip one).
      const { rows } = await client.query<{ v: number }>(`SELECT max(version) AS v FROM ${table}`);
      const behind = await doctorJson(pgEnv());
      expect(behind.code).toBe(1);
      expect(check(behind.checks, 'schema')?.message).toBe(
        `version ${rows[0]!.v} is behind this Punctual's ${latest}: run punctual migrate`,
      );
      await client.query(`INSERT INTO ${table} (version, name) VALUES ($1, 'back'), ($2, 'future')`, [
        latest,
        latest + 1,
      ]);
      const newer = await doctorJson(pgEnv());
      expect(newer.code).toBe(1);
      expect(check(newer.checks, 'schema')?.message).toContain('SCHEMA_TOO_NEW');
      // The newer migration declares it still works with this Punctual: a rolling deploy in progress.
      await client.query(`UPDATE ${table} SET compatible_from = $1 WHERE version = $2`, [latest, latest + 1]);
      const compatible = await doctorJson(pgEnv());
      expect(check(compatible.checks, 'schema')).toMatchObject({ status: 'ok' });
      expect(check(compatible.checks, 'schema')?.message).toContain('declared to work with it');
    } finally {
      await client.end();
    }
  });

  it('reports an unreachable database', async () => {
    const r = await doctorJson({ ...pgEnv(), PUNCTUAL_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/test' });
    expect(r.code).toBe(1);
    expect(check(r.checks, 'database')).toMatchObject({ status: 'fail' });
    const t = await run(tenantsList, {
      env: { ...pgEnv(), PUNCTUAL_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/test' },
    });
    expect(t.code).toBe(1);
    expect(t.err).toMatch(/^punctual: DATABASE_UNAVAILABLE: PostgreSQL 127\.0\.0\.1:1\/test/);
  });
});
