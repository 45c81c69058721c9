// Page cursors are signed for their listing and tenant: a cursor the API handed out pages on; the same cursor
// for another tenant, another listing, or with one character changed is CURSOR_INVALID; and a raw request the
// HTTP parser refuses still gets the documented error shape.

import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, scheduleBody, testApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
  for (const key of ['a', 'b', 'c']) {
    await t.request({ method: 'PUT', url: `/v1/schedules/${key}`, as: 'acme', payload: scheduleBody() });
  }
});
afterAll(async () => {
  await t?.close();
});

describe('page cursors', () => {
  it('page on for the tenant and listing they were handed to, and nowhere else', async () => {
    const first = json(await t.request({ method: 'GET', url: '/v1/schedules?limit=2', as: 'acme' }));
    expect(first.items.map((s: { key: string }) => s.key)).toEqual(['a', 'b']);
    const cursor = first.nextCursor as string;
    const next = await t.request({
      method: 'GET',
      url: `/v1/schedules?limit=2&cursor=${cursor}`,
      as: 'acme',
    });
    expect(json(next).items.map((s: { key: string }) => s.key)).toEqual(['c']);

    const elsewhere = [
      { url: `/v1/schedules?cursor=${cursor}`, as: 'globex' as const },
      { url: `/v1/runs?cursor=${cursor}`, as: 'acme' as const },
      { url: `/v1/kv?cursor=${cursor}`, as: 'acme' as const },
      {
        url: `/v1/schedules?cursor=${cursor.slice(0, -1)}${cursor.endsWith('A') ? 'B' : 'A'}`,
        as: 'acme' as const,
      },
    ];
    for (const { url, as } of elsewhere) {
      const res = await t.request({ method: 'GET', url, as });
      expect(res.statusCode, url).toBe(400);
      expect(json(res).error.code, url).toBe('CURSOR_INVALID');
    }
  });
});

describe('a request the HTTP parser refuses', () => {
  it('answers 400 MALFORMED_REQUEST in the documented error shape', async () => {
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = new URL(address);
    for (const line of ['GET /v1/sch\u00e9dules HTTP/1.1', 'GET /v1/a\u0001b HTTP/1.1']) {
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => {
          socket.write(Buffer.concat([Buffer.from(line, 'latin1'), Buffer.from('\r\nHost: x\r\n\r\n')]));
        });
        let text = '';
        socket.on('data', (d: Buffer) => (text += d.toString('utf8')));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
      const [head, body] = raw.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 400 /);
      expect(head).toMatch(/content-type: application\/json/i);
      const parsed = JSON.parse(body!) as { error: { code: string; message: string; details: object } };
      expect(Object.keys(parsed)).toEqual(['error']);
      expect(Object.keys(parsed.error)).toEqual(['code', 'message', 'details']);
      expect(parsed.error.code).toBe('MALFORMED_REQUEST');
    }
  });
});
