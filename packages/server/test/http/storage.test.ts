// The database's storage failing under the service. Damaged pages (a real file, 4 pages of schedules overwritten): found
// at start, the service answers STORAGE_CORRUPT, refuses writes, and /readyz says not ready with the reason. A full disk
// (SQLITE_FULL, PostgreSQL 53100, injected at the store boundary): STORAGE_FULL with Retry-After, not ready,
// a log line saying what to do, and ready again once a write succeeds.

import Database from 'better-sqlite3';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createService, type Service } from '../../src/service.js';
import { json, scheduleBody, testApp, type TestApp } from '../support/app.js';

let dir: string | undefined;
let service: Service | undefined;
let t: TestApp | undefined;
afterEach(async () => {
  await service?.close();
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  service = t = dir = undefined;
});

const hook = { webhook: { url: 'https://example.com/hook' } };

describe('a damaged database', () => {
  it('answers STORAGE_CORRUPT, refuses writes and is not ready', async () => {
    dir = mkdtempSync(join(tmpdir(), 'punctual-storage-'));
    const config = loadConfig({
      PUNCTUAL_DATABASE_PATH: join(dir, 'punctual.db'),
      PUNCTUAL_PORT: '0',
      PUNCTUAL_SHUTDOWN_GRACE: '1s',
    });
    const open = () => createService(config, { logger: pino({ level: 'silent' }), processMetrics: false });
    service = await open();
    const key = service.bootstrap!.apiKey;
    const api = service.scheduler.tenant('default');
    for (let i = 0; i < 300; i++) {
      await api.put({ key: `schedule-${i}-${'x'.repeat(100)}`, spec: '@every 1h', target: hook });
    }
    await service.close();
    const path = join(dir, 'punctual.db');
    // Four leaf pages of the schedules table (a file's middle may hold empty tables only, and the pages next to
    // a leaf may belong to another table: the tenants the service reads before it checks the file).
    const pages = new Database(path, { readonly: true });
    const leaves = pages
      .prepare(
        `SELECT pageno AS page, pgsize AS size FROM dbstat WHERE name = 'schedules' AND pagetype = 'leaf'
          ORDER BY pageno LIMIT 4`,
      )
      .all() as { page: number; size: number }[];
    pages.close();
    expect(leaves).toHaveLength(4);
    const fd = openSync(path, 'r+');
    for (const { page, size } of leaves) writeSync(fd, Buffer.alloc(size, 0xa5), 0, size, (page - 1) * size);
    closeSync(fd);

    service = await open();
    await service.start();
    // Known at start (quick_check), before any request touches the damage: the engine stays stopped.
    const early = await service.app.inject({ method: 'GET', url: '/readyz' });
    expect(early.statusCode).toBe(503);
    expect(json(early).error).toMatchObject({ code: 'NOT_READY', details: { database: 'corrupt' } });
    expect(service.scheduler.started).toBe(false);
    const auth = { authorization: `Bearer ${key}` };
    const list = await service.app.inject({ method: 'GET', url: '/v1/schedules?limit=1000', headers: auth });
    expect(list.statusCode).toBe(503);
    expect(json(list).error.code).toBe('STORAGE_CORRUPT');
    const put = await service.app.inject({
      method: 'PUT',
      url: '/v1/schedules/new-one',
      headers: auth,
      payload: { spec: '@every 1h', target: hook },
    });
    expect(put.statusCode).toBe(503);
    expect(json(put)).toEqual({
      error: { code: 'STORAGE_CORRUPT', message: expect.stringMatching(/damaged/), details: {} },
    });
    const ready = await service.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(json(ready).error).toMatchObject({ code: 'NOT_READY', details: { database: 'corrupt' } });
    expect(json(ready).error.message).toMatch(/punctual doctor/);
  });
});

describe('a full disk', () => {
  for (const [name, code] of [
    ['SQLite', 'SQLITE_FULL'],
    ['PostgreSQL', '53100'],
  ] as const) {
    it(`(${name} ${code}) answers STORAGE_FULL with Retry-After, is not ready, and recovers on a write`, async () => {
      const lines: { msg: string; storage?: string }[] = [];
      const logger = pino({ level: 'info' }, { write: (l: string) => void lines.push(JSON.parse(l)) });
      t = await testApp({ logger, start: true });
      const store = t.store;
      const original = store.putSchedule.bind(store);
      store.putSchedule = () =>
        Promise.reject(Object.assign(new Error('database or disk is full'), { code }));
      const full = await t.request({
        method: 'PUT',
        url: '/v1/schedules/a',
        as: 'acme',
        payload: scheduleBody(),
      });
      expect(full.statusCode).toBe(503);
      expect(full.headers['retry-after']).toBe('30');
      expect(json(full).error.code).toBe('STORAGE_FULL');
      const notReady = await t.request({ method: 'GET', url: '/readyz' });
      expect(notReady.statusCode).toBe(503);
      expect(json(notReady).error.details).toMatchObject({ database: 'full' });
      const advice = lines.find((l) => l.storage === 'full');
      expect(advice?.msg).toMatch(/disk holding the database is full.*Free space/);
      expect(lines.some((l) => l.msg === 'request failed')).toBe(false);

      store.putSchedule = original;
      const ok = await t.request({
        method: 'PUT',
        url: '/v1/schedules/a',
        as: 'acme',
        payload: scheduleBody(),
      });
      expect(ok.statusCode).toBe(201);
      expect((await t.request({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    });
  }
});
