// The dashboard's built files (packages/dashboard/dist) on the service's own port: index.html at `/` and at
// every client-side route of the single-page app, the hashed files under /assets with year-long cache
// headers, gzip when the browser accepts it. It never shadows the API (/v1), /metrics, /docs or the probes,
// and reads files only from the dist folder, by names it listed itself.

import { readdir, readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type {} from '@fastify/swagger'; // `schema.hide` keeps these routes out of the OpenAPI document
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export interface DashboardOptions {
  /** The built dashboard (index.html and assets/). Default: packages/dashboard/dist next to this package. */
  distDir?: string;
}

/** packages/dashboard/dist, from src/http/routes or dist/http/routes alike. */
export function defaultDashboardDir(): string {
  return fileURLToPath(new URL('../../../../dashboard/dist/', import.meta.url));
}

/**
 * Paths the app routes in the browser (see packages/dashboard/src/lib/router.ts); each answers index.html.
 * A schedule key never contains `/`, so one wildcard level covers `/schedules/:key` and `/schedules/:key/edit`;
 * a calendar name never contains `/` either (`/calendars/:name`).
 */
export const CLIENT_ROUTES = [
  '/',
  '/new',
  '/health',
  '/schedules',
  '/schedules/*',
  '/runs',
  '/runs/*',
  '/calendars',
  '/calendars/*',
] as const;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.map', '.svg', '.txt']);

/** Hashed file names change with their content, so browsers may keep them for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

interface Asset {
  body: Buffer;
  gzip: Buffer | null;
  type: string;
}

function asset(name: string, body: Buffer): Asset {
  const ext = extname(name).toLowerCase();
  const gzip = COMPRESSIBLE.has(ext) && body.length > 1024 ? gzipSync(body) : null;
  return { body, gzip, type: TYPES[ext] ?? 'application/octet-stream' };
}

function acceptsGzip(request: FastifyRequest): boolean {
  const accept = request.headers['accept-encoding'];
  return typeof accept === 'string' && /\bgzip\b/i.test(accept);
}

function send(request: FastifyRequest, reply: FastifyReply, a: Asset, cache: string): FastifyReply {
  reply
    .header('content-type', a.type)
    .header('cache-control', cache)
    .header('x-content-type-options', 'nosniff');
  if (a.gzip) {
    reply.header('vary', 'accept-encoding');
    if (acceptsGzip(request)) return reply.header('content-encoding', 'gzip').send(a.gzip);
  }
  return reply.send(a.body);
}

const NOT_BUILT = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Punctual</title>
<p>The dashboard is not built. Run <code>npm run build</code> (or <code>npm start</code>, which builds it) and restart
<code>punctual serve</code>. The API answers under <code>/v1</code> meanwhile.</p></html>`;

/**
 * Serves the dashboard. Files are read once, on first request, and kept in memory (the bundle is a few
 * hundred kilobytes); a missing dist folder answers a page that says how to build it.
 */
export async function dashboardRoutes(app: FastifyInstance, opts: DashboardOptions = {}): Promise<void> {
  const distDir = opts.distDir ?? defaultDashboardDir();
  let loaded: Promise<{ index: Asset | null; assets: Map<string, Asset> }> | undefined;

  const load = async (): Promise<{ index: Asset | null; assets: Map<string, Asset> }> => {
    const assets = new Map<string, Asset>();
    let index: Asset | null;
    try {
      index = asset('index.html', await readFile(join(distDir, 'index.html')));
    } catch {
      return { index: null, assets };
    }
    let names: string[] = [];
    try {
      names = await readdir(join(distDir, 'assets'));
    } catch {
      // a bundle without assets/ is unusual but not an error
    }
    for (const name of names) {
      if (!/^[A-Za-z0-9._-]+$/.test(name)) continue;
      try {
        assets.set(name, asset(name, await readFile(join(distDir, 'assets', name))));
      } catch {
        // a sub-folder or an unreadable file is simply not served
      }
    }
    return { index, assets };
  };
  const files = (): Promise<{ index: Asset | null; assets: Map<string, Asset> }> => {
    loaded ??= load().then((f) => {
      if (f.index === null) loaded = undefined; // not built yet: look again on the next request
      return f;
    });
    return loaded;
  };

  const index = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const { index } = await files();
    reply
      .header('content-security-policy', CSP)
      .header('referrer-policy', 'no-referrer')
      .header('x-frame-options', 'DENY');
    if (index === null) {
      return reply
        .code(503)
        .header('content-type', TYPES['.html'])
        .header('cache-control', 'no-store')
        .send(NOT_BUILT);
    }
    return send(request, reply, index, 'no-cache');
  };

  const hidden = { schema: { hide: true } };
  for (const path of CLIENT_ROUTES) app.get(path, hidden, index);

  app.get<{ Params: { name: string } }>('/assets/:name', hidden, async (request, reply) => {
    const a = (await files()).assets.get(request.params.name);
    if (!a) return reply.callNotFound();
    return send(request, reply, a, IMMUTABLE);
  });
}
