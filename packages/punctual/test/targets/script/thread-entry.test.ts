// The sandbox thread starts both ways the library runs: from TypeScript sources (every other test here:
// the pool registers tsx in the thread and imports script-thread.ts) and built to JavaScript (this test:
// the script folder transpiled to .js in a temporary folder, driven from a plain `node` process, where the
// pool starts script-thread.js directly).

import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const SOURCES = fileURLToPath(new URL('../../../src/targets/script/', import.meta.url));
// The pool, the thread and what they import: every module of the folder that imports nothing outside it.
const FILES = readdirSync(SOURCES)
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.slice(0, -3))
  .filter((name) => !/from '\.\.\//.test(readFileSync(join(SOURCES, `${name}.ts`), 'utf8')));
// Inside the workspace's node_modules, so `quickjs-emscripten` resolves as it would for a user.
const OUT = fileURLToPath(
  new URL(`../../../../../node_modules/.cache/punctual-thread-${process.pid}/`, import.meta.url),
);

const DRIVER = `
import { ScriptPool } from './script-pool.js';
import { loadQuickJS } from './script-quickjs.js';

const limits = {
  timeoutMs: 300, memoryMb: 16, maxStackBytes: 262144, maxResultBytes: 32768, maxLogLines: 100,
  maxLogLineBytes: 1024, maxLogBytes: 16384, maxHostCalls: 1000, maxPendingHostCalls: 32, maxFetches: 3,
  maxArgsBytes: 81920,
};
const q = await loadQuickJS();
const pool = await ScriptPool.start({ size: 1, hardMarginMs: 1000, wasmModule: q.wasmModule, warmMemoryMb: 16 });
const job = (source) => pool.run({
  tenantId: 't', source, payloadJson: '{"n":41}', runJson: '{}', limits,
  onCall: async () => ({ ok: true, json: '"from host"' }), signal: new AbortController().signal,
});
const results = [
  await job('export default async (ctx) => [ctx.payload.n + 1, await ctx.kv.get("k")]'),
  await job('export default () => { for (;;) {} }'),
];
await pool.close();
console.log(JSON.stringify(results));
`;

describe('script sandbox: thread entry', () => {
  afterAll(() => rmSync(OUT, { recursive: true, force: true }));

  it('runs scripts when the library is built to JavaScript', { timeout: 60_000 }, async () => {
    expect(FILES).toEqual(expect.arrayContaining(['script-pool', 'script-thread', 'script-run', 'protocol']));
    mkdirSync(OUT, { recursive: true });
    writeFileSync(join(OUT, 'package.json'), '{ "type": "module" }');
    for (const name of FILES) {
      const source = readFileSync(join(SOURCES, `${name}.ts`), 'utf8');
      const { outputText } = ts.transpileModule(source, {
        compilerOptions: {
          module: ts.ModuleKind.ESNext,
          target: ts.ScriptTarget.ES2022,
          verbatimModuleSyntax: true,
        },
      });
      writeFileSync(join(OUT, `${name}.js`), outputText);
    }
    writeFileSync(join(OUT, 'driver.js'), DRIVER);
    const { stdout } = await promisify(execFile)(process.execPath, [join(OUT, 'driver.js')], {
      timeout: 30_000,
    });
    const [ok, loop] = JSON.parse(stdout.trim()) as [unknown, unknown];
    expect(ok).toEqual({ type: 'ok', json: '[42,"from host"]', logs: [] });
    expect(loop).toMatchObject({ type: 'error', code: 'SCRIPT_TIMEOUT' });
  });
});
