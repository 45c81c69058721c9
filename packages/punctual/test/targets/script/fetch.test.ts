// `ctx.fetch` from scripts: through the same address guard as webhooks (private addresses refused, unless
// the operator allows them), the per-tenant host allow-list, and the fetch limits (calls per run, response
// size, request body, time). A local HTTP server stands in for the outside world.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AddressGuard, parseCidrList } from '../../../src/targets/address-guard.js';
import { endOf, MARGIN_MS, sandbox, TENANT_A, TENANT_B, valueOf, type Sandbox } from './support.js';

let server: Server;
let base: string;
const hanging: ServerResponse[] = [];

function handle(req: IncomingMessage, res: ServerResponse): void {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString('utf8')));
  req.on('end', () => {
    if (req.url === '/hang') {
      hanging.push(res);
      return;
    }
    if (req.url === '/redirect') {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      return;
    }
    if (req.url === '/big') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(100_000));
      return;
    }
    const echo = { method: req.method, url: req.url, headers: req.headers, body };
    res.writeHead(req.url === '/missing' ? 404 : 200, {
      'content-type': 'application/json',
      'x-test': 'yes',
    });
    res.end(JSON.stringify(echo));
  });
}

beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const res of hanging) res.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('script sandbox: ctx.fetch refused by the guard', () => {
  let s: Sandbox;
  beforeAll(async () => {
    s = await sandbox({ guard: new AddressGuard([]), limits: { maxFetchesPerRun: 20 } });
  });
  afterAll(() => s.close());

  it('a fetch to a private address is refused: SCRIPT_HOST_CALL_REFUSED, catchable by the script', async () => {
    const port = new URL(base).port;
    const urls = [
      base,
      `http://localhost:${port}/`,
      `http://[::1]:${port}/`,
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/',
      'http://2130706433/', // 127.0.0.1 written as a number
      'http://0x7f.1/',
      'file:///etc/passwd',
      'ftp://example.com/',
      'http://user:pass@example.com/',
    ];
    const codes = await s.deliver(
      `export default async (ctx) => {
        const out = [];
        for (const url of ${JSON.stringify(urls)}) {
          try { await ctx.fetch(url); out.push('fetched'); } catch (e) { out.push(e.code + ': ' + e.message); }
        }
        return out;
      }`,
      { timeoutMs: 5000 },
    );
    const answers = valueOf(codes.outcome) as string[];
    expect(answers).toHaveLength(urls.length);
    for (const a of answers) expect(a).toMatch(/^SCRIPT_HOST_CALL_REFUSED: (refused to connect|fetch)/);
    expect(answers.slice(0, 7).every((a) => a.includes('refused to connect'))).toBe(true);
    const uncaught = await s.deliver(`export default (ctx) => ctx.fetch('${base}/')`);
    expect(endOf(uncaught.outcome)).toBe('fail:SCRIPT_HOST_CALL_REFUSED');
    expect(uncaught.outcome.type === 'fail' && uncaught.outcome.error.message).toMatch(/refused to connect/);
  });
});

describe('script sandbox: ctx.fetch allowed', () => {
  let s: Sandbox;
  beforeAll(async () => {
    s = await sandbox({
      guard: new AddressGuard(parseCidrList('127.0.0.0/8')),
      allowHosts: (tenantId) => (tenantId === TENANT_B ? ['api.example.com', '*.example.org'] : undefined),
      limits: { fetchMaxResponseBytes: 1024, fetchMaxRequestBytes: 2048 },
    });
  });
  afterAll(() => s.close());

  it('fetches from a server the guard allows: status, headers, text and json', async () => {
    const found = await s.deliver(`export default async (ctx) => {
      const get = await ctx.fetch('${base}/hello?x=1', { headers: { 'x-token': 'abc' } });
      const post = await ctx.fetch('${base}/items', { method: 'post', body: { name: 'n' } });
      const missing = await ctx.fetch('${base}/missing');
      const g = await get.json();
      const p = await post.json();
      return {
        get: [get.ok, get.status, get.headers['x-test'], g.method, g.url, g.headers['x-token'], g.headers['user-agent']],
        post: [post.status, p.method, p.body, p.headers['content-type']],
        missing: [missing.ok, missing.status],
      };
    }`);
    expect(valueOf(found.outcome)).toEqual({
      get: [true, 200, 'yes', 'GET', '/hello?x=1', 'abc', 'punctual-script/1'],
      post: [200, 'POST', '{"name":"n"}', 'application/json'],
      missing: [false, 404],
    });
  });

  it('never follows a redirect, cuts a long body, and refuses a large request body or a reserved header', async () => {
    const found = await s.deliver(`export default async (ctx) => {
      const r = await ctx.fetch('${base}/redirect');
      const big = await ctx.fetch('${base}/big');
      const refused = [];
      try { await ctx.fetch('${base}/', { method: 'POST', body: 'x'.repeat(3000) }); } catch (e) { refused.push(e.code); }
      return [r.status, r.headers.location, big.truncated, (await big.text()).length, refused];
    }`);
    expect(valueOf(found.outcome)).toEqual([
      302,
      'http://169.254.169.254/latest/meta-data/',
      true,
      1024,
      ['SCRIPT_HOST_CALL_REFUSED'],
    ]);
    const host = await s.deliver(
      `export default (ctx) => ctx.fetch('${base}/', { headers: { Host: 'evil' } })`,
    );
    expect(endOf(host.outcome)).toBe('fail:SCRIPT_HOST_CALL_REFUSED');
  });

  it('allows at most 3 fetches per run', async () => {
    const found = await s.deliver(`export default async (ctx) => {
      const out = [];
      for (let i = 0; i < 5; i++) {
        try { out.push((await ctx.fetch('${base}/n' + i)).status); } catch (e) { out.push(e.code); }
      }
      return out;
    }`);
    expect(valueOf(found.outcome)).toEqual([
      200,
      200,
      200,
      'SCRIPT_HOST_CALL_REFUSED',
      'SCRIPT_HOST_CALL_REFUSED',
    ]);
  });

  it('applies the tenant’s allow-list on top of the guard', async () => {
    const found = await s.deliver(
      `export default async (ctx) => {
        try { await ctx.fetch('${base}/'); return 'fetched'; } catch (e) { return [e.code, e.message]; }
      }`,
      { tenantId: TENANT_B },
    );
    expect(valueOf(found.outcome)).toEqual(['SCRIPT_HOST_CALL_REFUSED', expect.stringMatching(/allow-list/)]);
    const other = await s.deliver(`export default async (ctx) => (await ctx.fetch('${base}/')).status`, {
      tenantId: TENANT_A,
    });
    expect(valueOf(other.outcome)).toBe(200);
  });

  it('a fetch that hangs ends the run at its time limit', async () => {
    const { outcome, ms } = await s.deliver(`export default (ctx) => ctx.fetch('${base}/hang')`, {
      timeoutMs: 400,
    });
    expect(endOf(outcome)).toBe('fail:SCRIPT_TIMEOUT');
    expect(ms).toBeLessThan(400 + MARGIN_MS);
  });
});
