// The dashboard's API types are generated from the service's /openapi.json: this regenerates them in memory
// and fails when the committed src/api-schema.ts differs, so the dashboard cannot drift from the API again.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GEN_COMMAND, generateApiSchema, SCHEMA_FILE } from '../scripts/api-schema.ts';
import { TARGET_KINDS } from '../src/api.ts';

describe('src/api-schema.ts', () => {
  it("matches the service's /openapi.json", { timeout: 30_000 }, async () => {
    const expected = await generateApiSchema();
    const committed = readFileSync(SCHEMA_FILE, 'utf8');
    if (committed !== expected) {
      expect.fail(
        `src/api-schema.ts is out of date with the service's /openapi.json: run \`${GEN_COMMAND}\` ` +
          'and commit the result',
      );
    }
  });

  it('gives every target kind the service accepts', () => {
    expect([...TARGET_KINDS].sort()).toEqual([
      'amqp',
      'command',
      'handler',
      'nats',
      'redis',
      'script',
      'webhook',
    ]);
  });
});
