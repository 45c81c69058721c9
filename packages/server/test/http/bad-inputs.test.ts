// Hostile and broken requests: malformed JSON, wrong content types, wrong types, unknown fields, 1 MB strings,
// oversized bodies, garbage headers, bad cursors and query strings, keys and ids with path tricks. Each row
// asserts the status, the error code (and the field where there is one), the error shape, and that nothing
// in the store changed. None may answer 500.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, scheduleBody, testApp, type TestApp } from '../support/app.js';

let t: TestApp;
let runId: string;
beforeAll(async () => {
  t = await testApp();
  await t.request({ method: 'PUT', url: '/v1/schedules/existing', as: 'acme', payload: scheduleBody() });
  runId = json(await t.request({ method: 'POST', url: '/v1/schedules/existing/trigger', as: 'acme' })).id;
});
afterAll(async () => {
  await t?.close();
});

const MB = 'x'.repeat(1_000_000);
const JSON_TYPE = { 'content-type': 'application/json' };

interface Case {
  name: string;
  method: 'GET' | 'PUT' | 'POST' | 'DELETE';
  url: string;
  /** A string is sent as is (with JSON_TYPE unless headers say otherwise); an object as JSON. */
  body?: string | Record<string, unknown>;
  headers?: Record<string, string>;
  status: number;
  code: string;
  field?: string;
}

const put = (name: string, body: Case['body'], code: string, field?: string, status = 400): Case => ({
  name,
  method: 'PUT',
  url: '/v1/schedules/new-one',
  body,
  status,
  code,
  field,
});

const CASES: Case[] = [
  // Malformed JSON
  put('truncated JSON', '{"spec": "0 9 * * *", "target": {', 'MALFORMED_JSON'),
  put('trailing garbage', '{"spec": "0 9 * * *"} xyz', 'MALFORMED_JSON'),
  put('single quotes', "{'spec': '0 9 * * *'}", 'MALFORMED_JSON'),
  put('a bare word', 'undefined', 'MALFORMED_JSON'),
  put(
    'prototype poisoning',
    '{"spec":"0 9 * * *","target":{"handler":"noop"},"__proto__":{"admin":true}}',
    'MALFORMED_JSON',
  ),
  put('constructor poisoning', '{"spec":"0 9 * * *","constructor":{"prototype":{"x":1}}}', 'MALFORMED_JSON'),
  put(
    'a payload nested 200,000 deep',
    `{"spec":"0 9 * * *","target":{"handler":"noop"},"payload":${'['.repeat(200_000)}${']'.repeat(200_000)}}`,
    'SCHEDULE_INVALID',
    'payload',
  ),
  // Wrong content type
  {
    ...put('text/plain', 'hello', 'UNSUPPORTED_MEDIA_TYPE', undefined, 415),
    headers: { 'content-type': 'text/plain' },
  },
  {
    ...put('form encoding', 'spec=0+9+*+*+*', 'UNSUPPORTED_MEDIA_TYPE', undefined, 415),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  },
  {
    ...put('no content type with a body', '{"spec":"x"}', 'UNSUPPORTED_MEDIA_TYPE', undefined, 415),
    headers: { 'content-type': '' },
  },
  {
    ...put('a garbage content type', '{}', 'UNSUPPORTED_MEDIA_TYPE', undefined, 415),
    headers: { 'content-type': '%%%/;;;' },
  },
  {
    ...put('JSON under another name', '{}', 'UNSUPPORTED_MEDIA_TYPE', undefined, 415),
    headers: { 'content-type': 'application/jsonx' },
  },
  // Wrong types
  put('a body that is an array', '[1,2,3]', 'VALIDATION_FAILED'),
  put('a body that is a string', '"0 9 * * *"', 'VALIDATION_FAILED'),
  put('a body that is null', 'null', 'VALIDATION_FAILED'),
  put('an empty body', '', 'VALIDATION_FAILED'),
  put('spec as a number', scheduleBody({ spec: 5 }), 'VALIDATION_FAILED', 'spec'),
  put('target as a string', scheduleBody({ target: 'noop' }), 'VALIDATION_FAILED', 'target'),
  put(
    'target with two kinds',
    scheduleBody({ target: { handler: 'noop', webhook: { url: 'https://e.com' } } }),
    'VALIDATION_FAILED',
    'target',
  ),
  put(
    'maxAttempts as a string',
    scheduleBody({ policies: { retry: { maxAttempts: 'three' } } }),
    'VALIDATION_FAILED',
    'policies.retry.maxAttempts',
  ),
  put('a fractional maxRuns', scheduleBody({ maxRuns: 1.5 }), 'VALIDATION_FAILED', 'maxRuns'),
  put('a negative maxRuns', scheduleBody({ maxRuns: -1 }), 'VALIDATION_FAILED', 'maxRuns'),
  put('startAt as words', scheduleBody({ startAt: 'tomorrow' }), 'VALIDATION_FAILED', 'startAt'),
  put(
    'startAt without an offset',
    scheduleBody({ startAt: '2026-02-01T00:00:00' }),
    'VALIDATION_FAILED',
    'startAt',
  ),
  put(
    'startAt as epoch millis',
    scheduleBody({ startAt: 1_700_000_000_000 }),
    'VALIDATION_FAILED',
    'startAt',
  ),
  put(
    'an unknown overlap policy',
    scheduleBody({ policies: { overlap: 'sometimes' } }),
    'VALIDATION_FAILED',
    'policies.overlap',
  ),
  put(
    'a lowercase webhook method',
    scheduleBody({ target: { webhook: { url: 'https://e.com', method: 'get' } } }),
    'VALIDATION_FAILED',
    'target',
  ),
  // Unknown fields
  put('an unknown top-level field', scheduleBody({ admin: true }), 'VALIDATION_FAILED', 'admin'),
  put('the key in the body', scheduleBody({ key: 'other' }), 'VALIDATION_FAILED', 'key'),
  put('a server-owned field', scheduleBody({ version: 7 }), 'VALIDATION_FAILED', 'version'),
  put(
    'an unknown policy',
    scheduleBody({ policies: { retries: 3 } }),
    'VALIDATION_FAILED',
    'policies.retries',
  ),
  put(
    'an unknown retry setting',
    scheduleBody({ policies: { retry: { max: 3 } } }),
    'VALIDATION_FAILED',
    'policies.retry.max',
  ),
  {
    name: 'an unknown pause field',
    method: 'POST',
    url: '/v1/schedules/existing/pause',
    body: { cancel: true },
    status: 400,
    code: 'VALIDATION_FAILED',
    field: 'cancel',
  },
  {
    name: 'a body on resume',
    method: 'POST',
    url: '/v1/schedules/existing/resume',
    body: { now: true },
    status: 400,
    code: 'VALIDATION_FAILED',
    field: 'now',
  },
  {
    name: 'an unknown trigger field',
    method: 'POST',
    url: '/v1/schedules/existing/trigger',
    body: { payloads: 1 },
    status: 400,
    code: 'VALIDATION_FAILED',
    field: 'payloads',
  },
  {
    name: 'a trigger payload nested 200,000 deep',
    method: 'POST',
    url: '/v1/schedules/existing/trigger',
    body: `{"payload":${'['.repeat(200_000)}${']'.repeat(200_000)}}`,
    status: 400,
    code: 'SCHEDULE_INVALID',
    field: 'payload',
  },
  put(
    'a payload of 300 kB (over the 256 KiB payload limit)',
    scheduleBody({ payload: 'x'.repeat(300_000) }),
    'SCHEDULE_INVALID',
    'payload',
  ),
  // Huge strings
  put('a 1 MB spec', scheduleBody({ spec: MB }), 'VALIDATION_FAILED', 'spec'),
  put('a 1 MB time zone', scheduleBody({ tz: MB }), 'VALIDATION_FAILED', 'tz'),
  put(
    'a 1 MB handler name',
    scheduleBody({ target: { handler: MB } }),
    'VALIDATION_FAILED',
    'target.handler',
  ),
  put('a 1 MB jitter', scheduleBody({ jitter: MB }), 'VALIDATION_FAILED', 'jitter'),
  put('a 1 MB field name', `{"${MB}": 1}`, 'VALIDATION_FAILED'),
  {
    name: 'a 1 MB pause note',
    method: 'POST',
    url: '/v1/schedules/existing/pause',
    body: { note: MB },
    status: 400,
    code: 'VALIDATION_FAILED',
    field: 'note',
  },
  {
    name: 'a 1 MB preview spec',
    method: 'POST',
    url: '/v1/preview',
    body: { spec: MB },
    status: 400,
    code: 'VALIDATION_FAILED',
    field: 'spec',
  },
  put(
    'a body over the limit',
    scheduleBody({ payload: 'x'.repeat(2_000_000) }),
    'BODY_TOO_LARGE',
    undefined,
    413,
  ),
  // Garbage headers
  {
    ...put('If-Match as words', scheduleBody(), 'VALIDATION_FAILED', 'if-match'),
    headers: { 'if-match': 'latest' },
  },
  { ...put('If-Match zero', scheduleBody(), 'VALIDATION_FAILED', 'if-match'), headers: { 'if-match': '0' } },
  {
    ...put('If-Match negative', scheduleBody(), 'VALIDATION_FAILED', 'if-match'),
    headers: { 'if-match': '-1' },
  },
  {
    ...put('If-Match too long', scheduleBody(), 'VALIDATION_FAILED', 'if-match'),
    headers: { 'if-match': '9'.repeat(100) },
  },
  {
    ...put('If-Match with an unbalanced quote', scheduleBody(), 'VALIDATION_FAILED', 'if-match'),
    headers: { 'if-match': '"1' },
  },
  {
    ...put('If-Match with a closing quote only', scheduleBody(), 'VALIDATION_FAILED', 'if-match'),
    headers: { 'if-match': '1"' },
  },
  {
    ...put('a content length that lies', '{}', 'MALFORMED_REQUEST'),
    headers: { ...JSON_TYPE, 'content-length': '9999' },
  },
  // Bad query strings and cursors
  {
    name: 'a garbage cursor',
    method: 'GET',
    url: '/v1/schedules?cursor=garbage',
    status: 400,
    code: 'CURSOR_INVALID',
  },
  {
    name: 'a base64 cursor of another shape',
    method: 'GET',
    url: `/v1/runs?cursor=${Buffer.from('{"a":1}').toString('base64url')}`,
    status: 400,
    code: 'CURSOR_INVALID',
  },
  {
    name: 'a forged schedules cursor of the right shape',
    method: 'GET',
    url: `/v1/schedules?cursor=${Buffer.from('["a"]').toString('base64url')}`,
    status: 400,
    code: 'CURSOR_INVALID',
  },
  {
    name: 'a forged runs cursor of the right shape',
    method: 'GET',
    url: `/v1/runs?cursor=${Buffer.from('[0,1]').toString('base64url')}`,
    status: 400,
    code: 'CURSOR_INVALID',
  },
  {
    name: 'a forged key-value cursor of the right shape',
    method: 'GET',
    url: `/v1/kv?cursor=${Buffer.from('"a"').toString('base64url')}`,
    status: 400,
    code: 'CURSOR_INVALID',
  },
  {
    name: 'a forged cursor with a made-up signature',
    method: 'GET',
    url: `/v1/schedules?cursor=${Buffer.from('["a"]').toString('base64url')}.AAAAAAAAAAAAAAAAAAAAAA`,
    status: 400,
    code: 'CURSOR_INVALID',
  },
  {
    name: 'an unknown query field on /v1/tenant',
    method: 'GET',
    url: '/v1/tenant?anything=1',
    status: 400,
    code: 'VALIDATION_FAILED',
    field: 'anything',
  },
  {
    name: 'an unknown query field on a schedule',
    method: 'GET',
    url: '/v1/schedules/existing?anything=1',
    status: 400,
    code: 'VALIDATION_FAILED',
    field: 'anything',
  },
  {
    name: 'broken percent-encoding in the query string',
    method: 'GET',
    url: '/v1/kv?prefix=%ZZ',
    status: 400,
    code: 'MALFORMED_REQUEST',
  },
  {
    name: 'percent-encoding of invalid UTF-8 in the query string',
    method: 'GET',
    url: '/v1/schedules?keyPrefix=%FF',
    status: 400,
    code: 'MALFORMED_REQUEST',
  },
  {
    name: 'a 3000-character cursor',
    method: 'GET',
    url: `/v1/runs?cursor=${'A'.repeat(3000)}`,
    status: 400,
    code: 'VALIDATION_FAILED',
    field: 'cursor',
  },
  {
    name: 'limit 0',
    method: 'GET',
    url: '/v1/schedules?limit=0',
    status: 400,
    code: 'VALIDATION_FAILED',
    field: 'limit',
  },
  {
    name: 'limit 1001',
    method: 'GET',
    url: '/v1/runs?limit=1001',
    status: 400,
    code: 'VALIDATION_FAILED',
    field: 'limit',
  },
  {
    name: 'limit as words',
    method: 'GET',
    url: '/v1/runs?limit=ten',
    status: 400,
    code: 'VALIDATION_FAILED',
    field: 'limit',
  },
  {
    name: 'limit given twice',
    method: 'GET',
    url: '/v1/runs?limit=1&limit=2',
    status: 400,
    code: 'VALIDATION_FAILED',
    field: 'limit',
  },
  {
    name: 'an unknown run state',
    method: 'GET',
    url: '/v1/runs?state=zombie',
    status: 400,
    code: 'VALIDATION_FAILED',
    field: 'state',
  },
  {
    name: 'an unknown query field',
    method: 'GET',
    url: '/v1/schedules?sort=key',
    status: 400,
    code: 'VALIDATION_FAILED',
    field: 'sort',
  },
  {
    name: 'from as words',
    method: 'GET',
    url: '/v1/runs?from=yesterday',
    status: 400,
    code: 'VALIDATION_FAILED',
    field: 'from',
  },
  // Keys and ids with path tricks
  {
    name: 'an encoded ../',
    method: 'PUT',
    url: '/v1/schedules/..%2F..%2Ftenant',
    body: scheduleBody(),
    status: 400,
    code: 'VALIDATION_FAILED',
    field: 'key',
  },
  {
    name: 'an encoded .. (a dot segment: resolves to /v1/)',
    method: 'GET',
    url: '/v1/schedules/%2E%2E',
    status: 404,
    code: 'NOT_FOUND',
  },
  {
    name: 'a bare ..',
    method: 'PUT',
    url: '/v1/schedules/x/..%2F..',
    body: scheduleBody(),
    status: 404,
    code: 'NOT_FOUND',
  },
  {
    name: 'an encoded slash',
    method: 'DELETE',
    url: '/v1/schedules/a%2Fb',
    status: 400,
    code: 'VALIDATION_FAILED',
    field: 'key',
  },
  {
    name: 'a NUL byte',
    method: 'PUT',
    url: '/v1/schedules/a%00b',
    body: scheduleBody(),
    status: 400,
    code: 'VALIDATION_FAILED',
    field: 'key',
  },
  {
    name: 'a newline',
    method: 'PUT',
    url: '/v1/schedules/a%0Ab',
    body: scheduleBody(),
    status: 400,
    code: 'VALIDATION_FAILED',
    field: 'key',
  },
  {
    name: 'a leading dot',
    method: 'PUT',
    url: '/v1/schedules/.hidden',
    body: scheduleBody(),
    status: 400,
    code: 'VALIDATION_FAILED',
    field: 'key',
  },
  {
    name: 'non-ASCII',
    method: 'PUT',
    url: '/v1/schedules/%D0%BA%D0%BB%D1%8E%D1%87',
    body: scheduleBody(),
    status: 400,
    code: 'VALIDATION_FAILED',
    field: 'key',
  },
  {
    name: 'a 201-character key',
    method: 'PUT',
    url: `/v1/schedules/${'k'.repeat(201)}`,
    body: scheduleBody(),
    status: 400,
    code: 'VALIDATION_FAILED',
    field: 'key',
  },
  {
    name: 'broken percent-encoding',
    method: 'GET',
    url: '/v1/schedules/a%ZZ',
    status: 400,
    code: 'MALFORMED_REQUEST',
  },
  {
    name: 'an over-long path segment',
    method: 'GET',
    url: `/v1/schedules/${'k'.repeat(5000)}`,
    status: 414,
    code: 'URI_TOO_LONG',
  },
  {
    name: 'SQL as a run id',
    method: 'GET',
    url: `/v1/runs/${encodeURIComponent("1' OR '1'='1")}`,
    status: 404,
    code: 'RUN_NOT_FOUND',
  },
  {
    name: 'a 65-character run id',
    method: 'POST',
    url: `/v1/runs/${'1'.repeat(65)}/cancel`,
    status: 400,
    code: 'VALIDATION_FAILED',
    field: 'id',
  },
  { name: 'an unknown route', method: 'GET', url: '/v1/admin', status: 404, code: 'NOT_FOUND' },
  { name: 'a wrong method', method: 'DELETE', url: '/v1/runs', status: 404, code: 'NOT_FOUND' },
];

describe('bad inputs', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const before = await t.snapshot();
    const headers: Record<string, string> = {};
    let payload: string | undefined;
    if (typeof c.body === 'string') {
      Object.assign(headers, JSON_TYPE);
      payload = c.body;
    } else if (c.body !== undefined) {
      Object.assign(headers, JSON_TYPE);
      payload = JSON.stringify(c.body);
    }
    Object.assign(headers, c.headers);
    if (headers['content-type'] === '') delete headers['content-type'];
    const res = await t.request({ method: c.method, url: c.url, as: 'acme', headers, payload });
    expect(res.statusCode).toBe(c.status);
    const body = json(res);
    expect(Object.keys(body)).toEqual(['error']);
    expect(Object.keys(body.error)).toEqual(['code', 'message', 'details']);
    expect(body.error.code).toBe(c.code);
    expect(typeof body.error.message).toBe('string');
    expect(body.error.message.length).toBeLessThan(1000);
    if (c.field !== undefined) expect(body.error.details.field).toBe(c.field);
    expect(await t.snapshot()).toBe(before);
  });

  it('left the seeded schedule and run as they were', async () => {
    const s = json(await t.request({ method: 'GET', url: '/v1/schedules/existing', as: 'acme' }));
    expect(s).toMatchObject({ version: 1, state: 'active', note: null });
    expect(json(await t.request({ method: 'GET', url: `/v1/runs/${runId}`, as: 'acme' })).state).toBe(
      'scheduled',
    );
  });
});
