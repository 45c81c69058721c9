// `npm run lint:openapi`: builds the OpenAPI document in-process (the app as the tests build it, with every
// route: key-value store and metrics included), writes it to a temporary file and lints it with Redocly CLI
// (`redocly.yaml` beside this package says which rules). Exits with the linter's code: 0 when there are no
// errors. A development tool; nothing at runtime depends on it.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testApp } from '../test/support/app.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = join(here, '..', '..', '..');

const t = await testApp({ metrics: true });
let body: string;
try {
  const res = await t.request({ method: 'GET', url: '/openapi.json' });
  if (res.statusCode !== 200) throw new Error(`/openapi.json answered ${res.statusCode}`);
  body = res.body;
} finally {
  await t.close();
}
const dir = mkdtempSync(join(tmpdir(), 'punctual-openapi-'));
const file = join(dir, 'openapi.json');
writeFileSync(file, `${JSON.stringify(JSON.parse(body), null, 2)}\n`);
const started = Date.now();
const lint = spawnSync(
  process.execPath,
  [
    join(root, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js'),
    'lint',
    file,
    '--config',
    join(here, '..', 'redocly.yaml'),
    ...process.argv.slice(2),
  ],
  {
    stdio: 'inherit',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  },
);
rmSync(dir, { recursive: true, force: true });
process.stdout.write(`lint:openapi: linted in ${Date.now() - started} ms\n`);
process.exit(lint.status ?? 1);
