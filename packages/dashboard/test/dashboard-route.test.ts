// The service's dashboard route (packages/server/src/http/routes/dashboard.ts) on a temporary dist folder:
// index.html at / and at client routes, hashed assets with year-long caching and gzip, and everything else
// left to the app's own 404 (so /v1 and unknown assets keep the JSON error shape).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLIENT_ROUTES,
  dashboardRoutes,
  defaultDashboardDir,
} from '../../server/src/http/routes/dashboard.ts';

let dir: string;
let app: FastifyInstance;
const js = `console.log(${JSON.stringify('x'.repeat(4000))});`;

async function appOn(distDir: string): Promise<FastifyInstance> {
  const a = Fastify();
  a.setNotFoundHandler((request, reply) =>
    reply.code(404).send({ error: { code: 'NOT_FOUND', message: `no route ${request.url}`, details: {} } }),
  );
  a.get('/v1/schedules', async () => ({ items: [], nextCursor: null }));
  await a.register(dashboardRoutes, { distDir });
  return a;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'punctual-dist-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><title>Punctual</title><script type="module" src="/assets/index-abc123.js"></script>',
  );
  writeFileSync(join(dir, 'assets', 'index-abc123.js'), js);
  writeFileSync(join(dir, 'assets', 'index-abc123.css'), 'body{}');
  app = await appOn(dir);
});

afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('dashboardRoutes', () => {
  it('answers index.html at / and at every client route, never cached', async () => {
    for (const url of [
      '/',
      '/new',
      '/health',
      '/schedules',
      '/schedules/reports.monthly',
      '/schedules/a%3Ab/edit',
      '/runs',
      '/runs/r1',
    ]) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
      expect(res.body).toContain('<title>Punctual</title>');
    }
    expect(CLIENT_ROUTES).toContain('/schedules/*');
  });

  it('serves hashed assets for a year, gzipped when the browser accepts it', async () => {
    const plain = await app.inject({ url: '/assets/index-abc123.js' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(js);
    const gz = await app.inject({
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toBe('accept-encoding');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(js);
    const css = await app.inject({ url: '/assets/index-abc123.css' });
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('leaves unknown assets, traversal attempts and the API to the app', async () => {
    for (const url of [
      '/assets/missing.js',
      '/assets/..%2Findex.html',
      '/assets/%2e%2e%2fpackage.json',
      '/v1/unknown',
      '/metrics',
      '/favicon.ico',
    ]) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
    }
    expect((await app.inject({ url: '/v1/schedules' })).json()).toEqual({ items: [], nextCursor: null });
  });

  it('says how to build the dashboard when it is not built, and finds it once it is', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'punctual-nodist-'));
    const a = await appOn(empty);
    try {
      const res = await a.inject({ url: '/' });
      expect(res.statusCode).toBe(503);
      expect(res.body).toContain('npm run build');
      writeFileSync(join(empty, 'index.html'), '<!doctype html><title>built</title>');
      expect((await a.inject({ url: '/' })).body).toContain('built');
    } finally {
      await a.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('finds packages/dashboard/dist by default', () => {
    expect(defaultDashboardDir().replace(/\\/g, '/')).toMatch(/packages\/dashboard\/dist\/?$/);
  });
});
