// The contract check itself (support/contract.ts): every app the HTTP tests build checks, when it closes,
// each response it gave against the document it serves. Here: it catches a status the document does not list
// and a body that breaks its schema, and it passes the responses of ordinary traffic.

import { expect, it } from 'vitest';
import { z } from 'zod';
import { scheduleBody, testApp } from '../support/app.js';

it('passes ordinary traffic, errors included', async () => {
  const t = await testApp();
  await t.request({ as: 'acme', method: 'PUT', url: '/v1/schedules/a', payload: scheduleBody() });
  await t.request({ as: 'acme', method: 'GET', url: '/v1/schedules/a' });
  await t.request({ as: 'acme', method: 'GET', url: '/v1/schedules/missing' });
  await t.request({ method: 'GET', url: '/v1/schedules' });
  await t.request({ as: 'acme', method: 'POST', url: '/v1/tenant/webhook-secret/rotate', payload: { x: 1 } });
  await t.request({ as: 'acme', method: 'GET', url: '/v1/runs?limit=0' });
  await expect(t.close()).resolves.toBeUndefined();
});

it('fails the app whose route answers a status it does not list, or a body off its schema', async () => {
  const t = await testApp({
    // In a plugin, as the service's routes are, so the document (generated as plugins load) has it.
    beforeReady: (app) => {
      void app.register(async (plugin) => {
        plugin.get(
          '/drift/:what',
          { schema: { security: [], response: { 200: z.object({ n: z.number() }) } } },
          async (request, reply) =>
            (request.params as { what: string }).what === 'status'
              ? reply.code(418 as 200).send({ n: 1 })
              : reply.code(200).type('application/json').serializer(JSON.stringify).send({ n: 'one' }),
        );
      });
    },
  });
  expect((await t.request({ method: 'GET', url: '/drift/status' })).statusCode).toBe(418);
  expect((await t.request({ method: 'GET', url: '/drift/body' })).statusCode).toBe(200);
  const closing = t.close();
  await expect(closing).rejects.toThrow(/GET \/drift\/\{what\} 418: status not listed/);
  await expect(closing).rejects.toThrow(
    /GET \/drift\/\{what\} 200: body does not match its schema: data\/n must be number/,
  );
});
