// Generates the dashboard's API types from the service itself: builds the server's Fastify app in-process on
// a throwaway in-memory SQLite store, reads /openapi.json through `inject` (nothing listens), turns it into
// TypeScript with openapi-typescript and formats it with the repository's prettier settings. Used by
// `npm run gen:api` (which writes src/api-schema.ts) and by the test that fails when that file drifts.
// It never writes anything itself and never touches a real database.

import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { format, resolveConfig } from 'prettier';
import { createScheduler, sqliteStore } from 'punctual';
import { buildApp } from '../../server/src/http/app.ts';
import { Metrics } from '../../server/src/metrics.ts';

export const SCHEMA_FILE = fileURLToPath(new URL('../src/api-schema.ts', import.meta.url));
export const GEN_COMMAND = 'npm run gen:api -w @punctual/dashboard';

/** The service's OpenAPI document, as `GET /openapi.json` serves it (with the metrics routes). */
export async function serviceOpenApi(): Promise<Record<string, unknown>> {
  const store = sqliteStore({ path: ':memory:' });
  const scheduler = createScheduler({ store });
  const metrics = new Metrics({ scheduler, clock: scheduler.clock, tenantLabels: 0, processMetrics: false });
  const app = buildApp({
    scheduler,
    tenants: store,
    config: { bodyLimit: 1024 * 1024, defaultRateLimit: 100, webhookSecretGraceMs: 0, publicUrl: null },
    metrics,
  });
  try {
    await app.ready();
    const res = await app.inject({ method: 'GET', url: '/openapi.json' });
    if (res.statusCode !== 200) throw new Error(`/openapi.json answered ${res.statusCode}`);
    return JSON.parse(res.body) as Record<string, unknown>;
  } finally {
    await app.close();
    metrics.close();
    await scheduler.close();
  }
}

/** The text of src/api-schema.ts for the service's current OpenAPI document. */
export async function generateApiSchema(): Promise<string> {
  const doc = await serviceOpenApi();
  // The version changes with every release; it is not part of the contract the types describe.
  const { info, ...rest } = doc as { info?: Record<string, unknown> };
  const ast = await openapiTS({ ...rest, info: { ...info, version: '0' } } as never, { enumValues: true });
  const header =
    "// GENERATED from the service's /openapi.json by packages/dashboard/scripts/gen-api.ts; do not edit.\n" +
    `// Regenerate with \`${GEN_COMMAND}\`; a test fails when this file drifts.\n\n`;
  const options = (await resolveConfig(SCHEMA_FILE)) ?? {};
  return format(header + astToString(ast), { ...options, filepath: SCHEMA_FILE });
}
