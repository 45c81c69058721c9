// The error table: every library code has a status, every service code is documented in docs/errors.md, a
// fault of the service answers a generic 500 (its message stays in the log), and a closed store is 503.

import { readFileSync } from 'node:fs';
import { ERROR_CODES, PunctualError } from 'punctual';
import { afterEach, expect, it } from 'vitest';
import { LIBRARY_STATUS, SERVICE_ERROR_CODES, toErrorReply } from '../../src/http/errors.js';
import { json, testApp, type TestApp } from '../support/app.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

it('places every library code, and documents every service code', () => {
  expect(Object.keys(LIBRARY_STATUS).sort()).toEqual(Object.keys(ERROR_CODES).sort());
  const doc = readFileSync(new URL('../../../../docs/errors.md', import.meta.url), 'utf8');
  const service = doc.slice(doc.indexOf('## Service'));
  for (const code of Object.keys(SERVICE_ERROR_CODES)) expect(service, code).toContain(`| \`${code}\` |`);
});

it('maps library errors to their status with their details', () => {
  const r = toErrorReply(
    new PunctualError('VERSION_CONFLICT', 'stale', { key: 'k', expected: 1, actual: 2 }),
  );
  expect(r).toMatchObject({ status: 409, internal: false });
  expect(r.body).toEqual({
    error: { code: 'VERSION_CONFLICT', message: 'stale', details: { key: 'k', expected: 1, actual: 2 } },
  });
  expect(toErrorReply(new PunctualError('SPEC_INVALID', 'bad')).body.error.details).toEqual({});
  expect(toErrorReply(new PunctualError('ATTEMPT_FAILED', 'x'))).toMatchObject({
    status: 500,
    internal: true,
  });
  expect(toErrorReply('a string')).toMatchObject({ status: 500, body: { error: { code: 'INTERNAL' } } });
});

it('answers a fault of the service with a generic 500, never its message', async () => {
  t = await testApp();
  t.store.listSchedules = async () => {
    throw new Error('secret internals: /var/lib/db is corrupt');
  };
  const res = await t.request({ method: 'GET', url: '/v1/schedules', as: 'acme' });
  expect(res.statusCode).toBe(500);
  expect(json(res).error).toEqual({
    code: 'INTERNAL',
    message: 'the service failed to answer; the error is in its log',
    details: {},
  });
  expect(res.body).not.toContain('secret');
});

it('answers 503 NOT_READY once the store is closed', async () => {
  t = await testApp();
  await t.store.close();
  const res = await t.request({ method: 'GET', url: '/v1/schedules', as: 'acme' });
  expect(res.statusCode).toBe(503);
  expect(json(res).error).toMatchObject({ code: 'NOT_READY', details: { cause: 'STORE_CLOSED' } });
  expect(res.headers['retry-after']).toBe('5');
  t.store.close = async () => {};
  t.scheduler.store.close = async () => {};
});
