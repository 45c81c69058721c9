// A body over PUNCTUAL_BODY_LIMIT is answered 413 BODY_TOO_LARGE, and every client reads that answer: the
// service reads and discards the rest of the body (bounded) before answering, so Node's own fetch, which is
// still sending, does not see EPIPE (issue 21, item 3). Over a real socket, since inject() has none.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainRequest } from '../../src/http/drain-request.js';
import { testApp, type TestApp } from '../support/app.js';

const EIGHT_MB = Buffer.alloc(8 * 1024 * 1024, 'a');

describe('a body over the limit', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await testApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => t.close());

  it('reaches fetch as 413 BODY_TOO_LARGE, for a sized and a streamed 8 MB PUT, every time', async () => {
    const before = await t.snapshot();
    const statuses: (number | string)[] = [];
    const codes: string[] = [];
    for (let i = 0; i < 8; i++) {
      const streamed = i % 2 === 1;
      const body = streamed
        ? new ReadableStream<Uint8Array>({
            start(c) {
              for (let k = 0; k < 128; k++) c.enqueue(new Uint8Array(64 * 1024).fill(97));
              c.close();
            },
          })
        : EIGHT_MB;
      try {
        const res = await fetch(`${base}/v1/schedules/big`, {
          method: 'PUT',
          body,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${t.keys.acme}` },
          ...(streamed ? { duplex: 'half' } : {}),
        } as RequestInit);
        statuses.push(res.status);
        codes.push(((await res.json()) as { error: { code: string } }).error.code);
      } catch (e) {
        statuses.push(String((e as { cause?: { code?: string } }).cause?.code ?? e));
      }
    }
    expect(statuses).toEqual(Array(8).fill(413));
    expect(new Set(codes)).toEqual(new Set(['BODY_TOO_LARGE']));
    expect(await t.snapshot()).toBe(before);
  });

  it('reaches fetch when the body is refused before it is read (no API key: 401)', async () => {
    const statuses: (number | string)[] = [];
    for (let i = 0; i < 4; i++) {
      try {
        const res = await fetch(`${base}/v1/schedules/big`, {
          method: 'PUT',
          body: EIGHT_MB,
          headers: { 'content-type': 'application/json' },
        });
        statuses.push(res.status);
        await res.arrayBuffer();
      } catch (e) {
        statuses.push(String((e as { cause?: { code?: string } }).cause?.code ?? e));
      }
    }
    expect(statuses).toEqual(Array(4).fill(401));
  });
});

describe('drainRequest', () => {
  it('reads a body to its end, and gives up past its bound', async () => {
    const results: boolean[] = [];
    const server = http.createServer((req, res) => {
      const bound = req.url === '/small' ? 1024 : 64 * 1024 * 1024;
      void drainRequest(req, bound, 10_000).then((whole) => {
        results.push(whole);
        res.writeHead(413, whole ? {} : { connection: 'close' }).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect((await fetch(`${base}/big`, { method: 'PUT', body: EIGHT_MB })).status).toBe(413);
      await fetch(`${base}/small`, { method: 'PUT', body: EIGHT_MB }).catch(() => undefined);
      expect(results).toEqual([true, false]);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
