// `punctual schedules import <file.jsonl>`, called as a function against the assembled service on a real
// socket (port 0, SQLite in a temporary folder): a file with good lines, a blank line, a line that is not
// JSON, one that is not an object, an invalid spec and a repeated key (each reported by its line and
// skipped, the rest written), a second import that is all unchanged, --dry-run, the progress line only on a
// terminal, --json, and the usage errors.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { schedulesImport, type SchedulesImportArgs } from '../src/cli/commands/schedules-import.js';
import type { CliIo } from '../src/cli/io.js';
import { loadConfig } from '../src/config.js';
import { createService, type Service } from '../src/service.js';

let dir: string;
let service: Service;
let env: Record<string, string>;
let url: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'punctual-cli-import-'));
  const config = loadConfig({
    PUNCTUAL_DATABASE_PATH: join(dir, 'punctual.db'),
    PUNCTUAL_PORT: '0',
    PUNCTUAL_SHUTDOWN_GRACE: '1s',
    PUNCTUAL_DEFAULT_RATE_LIMIT: '10000',
  });
  service = await createService(config, { logger: pino({ level: 'silent' }), processMetrics: false });
  ({ url } = await service.start());
  env = { PUNCTUAL_URL: url, PUNCTUAL_API_KEY: service.bootstrap!.apiKey };
});

afterAll(async () => {
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

const line = (key: string, spec = '0 9 * * *') =>
  JSON.stringify({ key, spec, target: { webhook: { url: 'https://example.com/hook' } } });

async function importFile(name: string, lines: string[], extra: Partial<SchedulesImportArgs> = {}) {
  const file = join(dir, name);
  writeFileSync(file, `${lines.join('\n')}\n`);
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), now: () => 0 };
  const code = await schedulesImport({ env, file, ...extra }, io);
  return { code, out: out.join(''), err: err.join('') };
}

async function version(key: string): Promise<number | undefined> {
  const res = await fetch(`${url}/v1/schedules/${key}`, {
    headers: { authorization: `Bearer ${env.PUNCTUAL_API_KEY}` },
  });
  return res.status === 200 ? ((await res.json()) as { version: number }).version : undefined;
}

const FILE = [
  line('imp-a'),
  line('imp-b'),
  '',
  '{"key": "imp-c", "spec": ',
  '[1, 2]',
  line('imp-d', '61 9 * * *'),
  line('imp-a', '5 9 * * *'),
  line('imp-e'),
];

it('writes the good lines and reports each bad one by its line and reason', async () => {
  const res = await importFile('mixed.jsonl', FILE, { batch: 2 });
  expect(res.code).toBe(1);
  const [summary, ...refused] = res.out.trimEnd().split('\n');
  expect(summary).toBe('created 3, updated 0, unchanged 0, refused 4');
  expect(refused).toHaveLength(4);
  expect(refused[0]).toMatch(/^line 4: MALFORMED_JSON: not valid JSON \(/);
  expect(refused[1]).toBe('line 5: VALIDATION_FAILED: a line must hold one JSON object');
  expect(refused[2]).toMatch(/^line 6: SPEC_INVALID: /);
  expect(refused[3]).toBe('line 7: BULK_KEY_DUPLICATE: key "imp-a" was given before, at line 1');
  expect(res.out).not.toContain('\r');
  expect(await version('imp-a')).toBe(1);
  expect(await version('imp-e')).toBe(1);
  expect(await version('imp-d')).toBeUndefined();
});

it('finds everything unchanged on a second import, and writes nothing on a dry run', async () => {
  const again = await importFile('again.jsonl', [line('imp-a'), line('imp-b'), line('imp-e')]);
  expect(again).toMatchObject({ code: 0, out: 'created 0, updated 0, unchanged 3, refused 0\n' });
  const dry = await importFile('dry.jsonl', [line('imp-a', '7 9 * * *'), line('imp-new')], { dryRun: true });
  expect(dry.out).toBe('created 1, updated 1, unchanged 0, refused 0 (dry run: nothing written)\n');
  expect(await version('imp-a')).toBe(1);
  expect(await version('imp-new')).toBeUndefined();
});

it('draws a progress line only on a terminal, and prints JSON with --json', async () => {
  const tty = await importFile('tty.jsonl', [line('imp-t1'), line('imp-t2')], { batch: 1, isTty: true });
  expect(tty.out).toContain('\r\x1b[Kline 1: created 1, updated 0, unchanged 0, refused 0');
  expect(tty.out.endsWith('\r\x1b[Kcreated 2, updated 0, unchanged 0, refused 0\n')).toBe(true);
  const json = await importFile('json.jsonl', [line('imp-t1'), 'oops'], { json: true, isTty: true });
  expect(JSON.parse(json.out)).toEqual({
    totals: { created: 0, updated: 0, unchanged: 1, refused: 1 },
    dryRun: false,
    refused: [
      { line: 2, key: null, code: 'MALFORMED_JSON', message: expect.stringMatching(/^not valid JSON/) },
    ],
  });
});

it('refuses an unreadable file and a bad --batch as usage errors', async () => {
  const missing = await schedulesImport(
    { env, file: join(dir, 'nope.jsonl') },
    { stdout: () => {}, stderr: () => {}, now: () => 0 },
  );
  expect(missing).toBe(2);
  expect((await importFile('b.jsonl', [line('x')], { batch: 0 })).code).toBe(2);
});
