// The OpenAPI document: it parses, is OpenAPI 3.1, names every /v1 route the app registers (checked against
// the router itself, so a new route cannot be left out), documents bearer auth, the error shape and the
// request bodies generated from the same zod schemas that validate them.

import { TARGET_KINDS, TARGET_SHAPES } from 'punctual';
import { afterEach, expect, it } from 'vitest';
import { json, testApp, type TestApp } from '../support/app.js';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

interface Operation {
  security?: unknown[];
  requestBody?: { required: boolean; content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, unknown>;
  parameters?: { name: string; in: string }[];
}
type Doc = {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
  security: unknown[];
};

it('documents every registered /v1 route, and only those', async () => {
  const registered: string[] = [];
  t = await testApp({
    metrics: true,
    beforeReady: (app) =>
      app.addHook('onRoute', (route) => {
        const methods = Array.isArray(route.method) ? route.method : [route.method];
        for (const m of methods) if (route.url.startsWith('/v1/')) registered.push(`${m} ${route.url}`);
      }),
  });
  const res = await t.request({ method: 'GET', url: '/openapi.json' });
  expect(res.statusCode).toBe(200);
  const doc = json<Doc>(res);
  expect(doc.openapi).toBe('3.1.0');
  expect(doc.info.title).toBe('Punctual API');

  const documented = Object.entries(doc.paths)
    .filter(([path]) => path.startsWith('/v1/'))
    .flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
  expect(registered.length).toBeGreaterThanOrEqual(15);
  expect(documented.sort()).toEqual([...registered].sort());
  expect(documented).toEqual(
    expect.arrayContaining([
      'PUT /v1/schedules/:key',
      'GET /v1/schedules',
      'GET /v1/schedules/:key',
      'DELETE /v1/schedules/:key',
      'POST /v1/schedules/:key/pause',
      'POST /v1/schedules/:key/resume',
      'POST /v1/schedules/:key/trigger',
      'POST /v1/schedules/:key/backfill',
      'GET /v1/schedules/:key/runs',
      'GET /v1/runs',
      'GET /v1/runs/:id',
      'POST /v1/runs/:id/cancel',
      'POST /v1/preview',
      'GET /v1/tenant',
      'POST /v1/tenant/webhook-secret/rotate',
    ]),
  );
  for (const path of ['/healthz', '/readyz', '/metrics']) {
    expect(doc.paths[path]?.get?.security).toEqual([]);
  }
});

it('declares bearer auth, the error shape on every /v1 operation, and the schemas that validate requests', async () => {
  t = await testApp();
  const doc = json<Doc>(await t.request({ method: 'GET', url: '/openapi.json' }));
  expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  expect(doc.security).toEqual([{ bearerAuth: [] }]);
  for (const [path, ops] of Object.entries(doc.paths)) {
    if (!path.startsWith('/v1/')) continue;
    for (const op of Object.values(ops)) {
      expect(op.responses['401']).toBeDefined();
      expect(op.responses['429']).toBeDefined();
    }
  }
  expect(Object.keys(doc.components.schemas)).toEqual(
    expect.arrayContaining(['Schedule', 'Run', 'RunDetail', 'Tenant', 'Error', 'Preview']),
  );

  // A run's error documents what the target kept: a script's logs and stack, with their caps.
  const details = doc.components.schemas.RunErrorDetails as {
    properties: Record<string, { type?: string; description?: string }>;
  };
  expect(details.properties.logs).toMatchObject({ type: 'array' });
  expect(details.properties.logs!.description).toContain('16384 characters');
  expect(details.properties.stack).toMatchObject({ type: 'string' });
  expect(details.properties.stack!.description).toContain('4096 characters');

  const put = doc.paths['/v1/schedules/{key}']!.put!;
  expect(put.requestBody?.required).toBe(true);
  const body = put.requestBody!.content['application/json']!.schema;
  const resolved = (body.$ref ? doc.components.schemas[String(body.$ref).split('/').pop()!] : body) as {
    additionalProperties: boolean;
    required: string[];
  };
  expect(resolved.additionalProperties).toBe(false);
  expect(resolved.required).toEqual(['spec', 'target']);
  expect(put.parameters?.map((p) => `${p.in}:${p.name}`)).toEqual([
    'query:dryRun',
    'path:key',
    'header:if-match',
  ]);

  // Bodies a client may leave out are optional in the document.
  for (const action of ['pause', 'resume', 'trigger']) {
    expect(doc.paths[`/v1/schedules/{key}/${action}`]!.post!.requestBody?.required).toBe(false);
  }
  expect(doc.paths['/v1/schedules/{key}/backfill']!.post!.requestBody?.required).toBe(true);
  // Every $ref points at a component that exists.
  for (const m of JSON.stringify(doc).matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
    expect(doc.components.schemas[m[1]!]).toBeDefined();
  }
});

it('lists every status a route can answer with, derived from its shape (rotate answers 400 too)', async () => {
  t = await testApp();
  const doc = json<Doc>(await t.request({ method: 'GET', url: '/openapi.json' }));
  const rotate = doc.paths['/v1/tenant/webhook-secret/rotate']!.post!;
  expect(Object.keys(rotate.responses).sort()).toEqual([
    '200',
    '400',
    '401',
    '413',
    '415',
    '429',
    '500',
    '503',
  ]);
  for (const payload of ['{"unknown": 1}', '{not json']) {
    const res = await t.request({
      as: 'acme',
      method: 'POST',
      url: '/v1/tenant/webhook-secret/rotate',
      headers: { 'content-type': 'application/json' },
      payload,
    });
    expect(res.statusCode).toBe(400);
  }
  const put = doc.paths['/v1/schedules/{key}']!.put!;
  expect(Object.keys(put.responses).sort()).toEqual(
    ['200', '201', '400', '401', '409', '413', '414', '415', '429', '500', '503'].sort(),
  );
  // Any route refuses a malformed query string (400); a /v1 route that reads none refuses any field.
  expect(Object.keys(doc.paths['/v1/tenant']!.get!.responses).sort()).toEqual([
    '200',
    '400',
    '401',
    '429',
    '500',
    '503',
  ]);
  const tenantRefusal = await t.request({ as: 'acme', method: 'GET', url: '/v1/tenant?anything=1' });
  expect(tenantRefusal.statusCode).toBe(400);
  expect(Object.keys(doc.paths['/healthz']!.get!.responses).sort()).toEqual(['200', '400', '500']);
  // /metrics (open unless the operator sets a metrics token, then 401 without it) is checked by the contract
  // test of health.test.ts, whose app keeps metrics.
  for (const ops of Object.values(doc.paths))
    for (const op of Object.values(ops))
      for (const r of Object.values(op.responses)) {
        expect((r as { description: string }).description).not.toMatch(/^(Default Response)?$/);
      }
});

it('names its server: the listen address by default, PUNCTUAL_PUBLIC_URL when set', async () => {
  t = await testApp();
  expect(
    json<{ servers: unknown }>(await t.request({ method: 'GET', url: '/openapi.json' })).servers,
  ).toEqual([{ url: '/' }]);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (t.app.server.address() as { port: number }).port;
  const served = (await (await fetch(`http://127.0.0.1:${port}/openapi.json`)).json()) as {
    servers: unknown;
  };
  expect(served.servers).toEqual([{ url: `http://127.0.0.1:${port}` }]);
  await t.close();
  t = await testApp({ config: { publicUrl: 'https://punctual.example/base' } });
  expect(
    json<{ servers: unknown }>(await t.request({ method: 'GET', url: '/openapi.json' })).servers,
  ).toEqual([{ url: 'https://punctual.example/base' }]);
});

it('publishes If-Match as the version pattern the handler accepts', async () => {
  t = await testApp();
  const doc = json<Doc>(await t.request({ method: 'GET', url: '/openapi.json' }));
  const param = doc.paths['/v1/schedules/{key}']!.put!.parameters!.find(
    (p) => p.name === 'if-match',
  ) as unknown as {
    schema: { pattern: string };
  };
  const published = new RegExp(param.schema.pattern);
  const put = (ifMatch: string) =>
    t.request({
      as: 'acme',
      method: 'PUT',
      url: '/v1/schedules/versioned',
      headers: { 'if-match': ifMatch },
      payload: { spec: '0 9 * * *', target: { handler: 'noop' } },
    });
  expect(
    (
      await t.request({
        as: 'acme',
        method: 'PUT',
        url: '/v1/schedules/versioned',
        payload: { spec: '0 9 * * *', target: { handler: 'noop' } },
      })
    ).statusCode,
  ).toBe(201);
  // Every published form is accepted (version 1 is current: 200), and what is not published is refused.
  for (const v of ['1', '"1"', 'W/"1"', '01']) {
    expect(published.test(v), v).toBe(true);
    expect((await put(v)).statusCode, v).toBe(200);
  }
  for (const v of ['latest', '0', '-1', '"0"', '1.5', '9'.repeat(16), '*']) {
    expect(published.test(v), v).toBe(false);
    const res = await put(v);
    expect(res.statusCode, v).toBe(400);
    expect(json(res).error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'if-match' } });
  }
  // A version that is not current is a conflict, not a bad header.
  expect((await put('"7"')).statusCode).toBe(409);
});

it("builds the target union from the library's registry of target kinds, in TARGET_KINDS order", async () => {
  t = await testApp();
  const doc = json<Doc>(await t.request({ method: 'GET', url: '/openapi.json' }));
  type Obj = { properties: Record<string, Obj>; required?: string[]; additionalProperties?: unknown };
  const union = (doc.components.schemas.Target as { anyOf: Obj[] }).anyOf;
  expect(union.map((o) => Object.keys(o.properties))).toEqual(TARGET_KINDS.map((k) => [k]));
  for (const [i, kind] of TARGET_KINDS.entries()) {
    const option = union[i]!;
    expect(option.required).toEqual([kind]);
    expect(option.additionalProperties).toBe(false);
    // The value's schema is the shape's own: the same type, fields and required fields.
    const published = option.properties[kind] as unknown as Obj & { type: string };
    const own = TARGET_SHAPES[kind].jsonSchema as unknown as Obj & { type: string };
    expect(published.type, kind).toBe(own.type);
    expect(Object.keys(published.properties ?? {}), kind).toEqual(Object.keys(own.properties ?? {}));
    expect(published.required, kind).toEqual(own.required);
  }
});
