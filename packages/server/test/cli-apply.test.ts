// `punctual apply` and `punctual export`, called as functions against the assembled service on a real socket
// (port 0, SQLite in a temporary folder): the plan and its symbols, applying twice (the second plan is all
// unchanged and bumps no version), --dry-run and --prune, a refused entry (its line and code; nothing applied
// unless --partial), malformed YAML (line and column), a key named twice, a concurrent change reported rather
// than overwritten, the refusal without a terminal, and the export round trip. The binary itself is spawned
// once, for the refusal without a terminal.

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apply, type ApplyArgs } from '../src/cli/commands/apply.js';
import { exportSchedules } from '../src/cli/commands/export.js';
import type { CliIo } from '../src/cli/io.js';
import { loadConfig } from '../src/config.js';
import { createService, type Service } from '../src/service.js';

const ROOT = new URL('../../../', import.meta.url).pathname;

let dir: string;
let service: Service;
let url: string;
let env: Record<string, string>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'punctual-cli-apply-'));
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

async function run<A>(cmd: (args: A, io: CliIo) => Promise<number>, args: A) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    stdout: (t) => void out.push(t),
    stderr: (t) => void err.push(t),
    now: () => Date.now(),
  };
  const code = await cmd(args, io);
  return { code, out: out.join(''), err: err.join('') };
}

/** Applies `text` as the file `name` (written in the temporary folder). */
function applyText(text: string, extra: Partial<ApplyArgs> = {}, name = 'schedules.yaml') {
  const file = join(dir, name);
  writeFileSync(file, text);
  return run(apply, { env, file, ...extra });
}

async function stored(): Promise<Map<string, { version: number; state: string; spec: string }>> {
  const res = await fetch(`${url}/v1/schedules?limit=1000`, {
    headers: { authorization: `Bearer ${env.PUNCTUAL_API_KEY}` },
  });
  const body = (await res.json()) as {
    items: { key: string; version: number; state: string; spec: string }[];
  };
  return new Map(body.items.map((s) => [s.key, s]));
}

async function removeAll(): Promise<void> {
  for (const key of (await stored()).keys()) {
    await fetch(`${url}/v1/schedules/${key}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${env.PUNCTUAL_API_KEY}` },
    });
  }
}

const SCRIPT = 'export default (ctx) => ctx.payload';

const FILE = `schedules:
  - key: reports.daily
    summary: The daily report
    spec: "0 9 * * 1-5"
    tz: Europe/Paris
    target:
      script:
        source: "${SCRIPT}"
    payload: { report: daily }
    labels: { team: sales }
  - key: sync.rates
    spec: "@every 1h"
    target:
      script: { source: "${SCRIPT}" }
    policies:
      retry: { maxAttempts: 5 }
      overlap: skip
    jitter: 30s
    state: paused
`;

describe('apply', () => {
  it('prints the plan, applies it, and a second apply plans nothing and bumps no version', async () => {
    await removeAll();
    const first = await applyText(FILE, { yes: true });
    expect(first.err).toBe('');
    expect(first.code).toBe(0);
    expect(first.out).toContain('+ create reports.daily  (line 2)\n+ create sync.rates  (line 11)\n');
    expect(first.out).toContain('Plan: 2 to create, 0 to update, 0 to delete, 0 unchanged.\n');
    expect(first.out).toContain('punctual: created reports.daily (version 1)\n');
    const before = await stored();
    expect(before.get('sync.rates')?.state).toBe('paused');

    const second = await applyText(FILE, { yes: true });
    expect(second).toMatchObject({ code: 0, err: '' });
    expect(second.out).toBe(
      '= unchanged reports.daily  (line 2)\n= unchanged sync.rates  (line 11)\n' +
        'Plan: 0 to create, 0 to update, 0 to delete, 2 unchanged.\nNothing to change.\n',
    );
    const after = await stored();
    expect([...after.values()].map((s) => s.version)).toEqual([...before.values()].map((s) => s.version));
  });

  it('plans an update field by field, sends it with the version it saw, and pauses / resumes', async () => {
    await removeAll();
    await applyText(FILE, { yes: true });
    const changed = FILE.replace('"0 9 * * 1-5"', '"0 10 * * 1-5"')
      .replace('maxAttempts: 5', 'maxAttempts: 7')
      .replace('state: paused', 'state: active');
    const dry = await applyText(changed, { dryRun: true });
    expect(dry.code).toBe(0);
    expect(dry.out).toBe(
      '~ update reports.daily  (line 2)\n' +
        '    spec: "0 9 * * 1-5" -> "0 10 * * 1-5"\n' +
        '~ update sync.rates  (line 11)\n' +
        '    policies.retry.maxAttempts: 5 -> 7\n' +
        '    state: "paused" -> "active"\n' +
        'Plan: 0 to create, 2 to update, 0 to delete, 0 unchanged.\n',
    );
    expect((await stored()).get('reports.daily')).toMatchObject({ version: 1, spec: '0 9 * * 1-5' });

    const applied = await applyText(changed, { yes: true, json: true });
    expect(applied.code).toBe(0);
    const body = JSON.parse(applied.out) as { applied: boolean; results: { key: string; ok: boolean }[] };
    expect(body.applied).toBe(true);
    expect(body.results.every((r) => r.ok)).toBe(true);
    const now = await stored();
    expect(now.get('reports.daily')).toMatchObject({ version: 2, spec: '0 10 * * 1-5' });
    expect(now.get('sync.rates')?.state).toBe('active');
  });

  it('--prune deletes only the stored schedules the file does not name', async () => {
    await removeAll();
    await applyText(FILE, { yes: true });
    const extra = `schedules:\n  - key: other.one\n    spec: "0 1 * * *"\n    target: { script: { source: "${SCRIPT}" } }\n`;
    await applyText(extra, { yes: true });
    const onlyDaily = FILE.split('  - key: sync.rates')[0]!;
    const kept = await applyText(onlyDaily, { yes: true });
    expect(kept.out).toContain('2 stored schedule(s) the file does not name are left alone');
    expect((await stored()).size).toBe(3);

    const pruned = await applyText(onlyDaily, { yes: true, prune: true });
    expect(pruned.code).toBe(0);
    expect(pruned.out).toContain(
      '= unchanged reports.daily  (line 2)\n' +
        '- delete other.one  (not in the file; --prune)\n' +
        '- delete sync.rates  (not in the file; --prune)\n' +
        'Plan: 0 to create, 0 to update, 2 to delete, 1 unchanged.\n',
    );
    expect([...(await stored()).keys()]).toEqual(['reports.daily']);
  });

  it('--dry-run changes nothing', async () => {
    await removeAll();
    const dry = await applyText(FILE, { dryRun: true, prune: true });
    expect(dry.code).toBe(0);
    expect(dry.out).toContain('Plan: 2 to create, 0 to update, 0 to delete, 0 unchanged.\n');
    expect((await stored()).size).toBe(0);
  });

  it('a refused entry is listed with its line and code and nothing is applied; --partial applies the rest', async () => {
    await removeAll();
    const bad = FILE.replace('"@every 1h"', '"0 0 31 2 *"');
    const refused = await applyText(bad, { yes: true });
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('! refused sync.rates  (line 11): SPEC_NEVER_FIRES: ');
    expect(refused.err).toContain('nothing applied: 1 schedule(s) refused');
    expect((await stored()).size).toBe(0);

    const json = await applyText(bad, { yes: true, json: true });
    expect(JSON.parse(json.out)).toMatchObject({
      applied: false,
      plan: { refused: [{ line: 11, key: 'sync.rates', code: 'SPEC_NEVER_FIRES', field: 'spec' }] },
    });

    const partial = await applyText(bad, { yes: true, partial: true, prune: true });
    expect(partial.code).toBe(1);
    expect(partial.out).toContain('punctual: created reports.daily (version 1)\n');
    expect([...(await stored()).keys()]).toEqual(['reports.daily']);
  });

  it('refuses malformed YAML with its line and column, and a key named twice with both lines', async () => {
    const malformed = await applyText('schedules:\n  - key: a\n    spec: */5 * * * *\n', { yes: true });
    expect(malformed.code).toBe(1);
    expect(malformed.err).toBe(
      'punctual: FILE_INVALID: line 3, column 15: not valid YAML: Unexpected alias at node end ' +
        '(a value starting with * must be quoted: spec: "*/5 * * * *")\n',
    );

    const json = await applyText('{"schedules": [\n  {"key": "a",}\n]}\n', { yes: true }, 'schedules.json');
    expect(json.err).toMatch(/^punctual: FILE_INVALID: line 2, column 15: not valid JSON/);

    const twice = await applyText(
      `schedules:\n  - key: a\n    spec: "0 1 * * *"\n  - key: a\n    spec: "0 2 * * *"\n`,
      { yes: true, json: true },
    );
    expect(twice.code).toBe(1);
    expect(JSON.parse(twice.out)).toEqual({
      error: { code: 'FILE_DUPLICATE_KEY', message: 'the key "a" is named twice, on lines 2 and 4' },
    });

    const section = await applyText('schedules: []\ncalendars: []\n', { yes: true });
    expect(section.err).toMatch(/^punctual: FILE_SECTION_UNKNOWN: line 2: unknown section "calendars"/);
  });

  it('reports a schedule changed since the plan instead of overwriting it', async () => {
    await removeAll();
    await applyText(FILE, { yes: true });
    const changed = FILE.replace('"0 9 * * 1-5"', '"0 11 * * 1-5"');
    // Someone else saves the schedule while the plan waits for its "yes".
    const confirm = async (): Promise<boolean> => {
      await fetch(`${url}/v1/schedules/reports.daily`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${env.PUNCTUAL_API_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ spec: '0 12 * * *', target: { script: { source: SCRIPT } } }),
      });
      return true;
    };
    const res = await applyText(changed, { confirm });
    expect(res.code).toBe(1);
    expect(res.err).toContain('punctual: update reports.daily (line 2) failed: VERSION_CONFLICT');
    expect((await stored()).get('reports.daily')).toMatchObject({ version: 2, spec: '0 12 * * *' });
  });

  it('asks on a terminal and applies nothing on "no"; without a terminal it needs --yes (exit 2)', async () => {
    await removeAll();
    const asked: string[] = [];
    const no = await applyText(FILE, { confirm: async (q) => (asked.push(q), false) });
    expect(asked).toEqual(['Apply? [y/N] ']);
    expect(no.code).toBe(1);
    expect(no.out).toContain('Not applied; nothing changed.\n');
    expect((await stored()).size).toBe(0);

    const noTerminal = await applyText(FILE, { json: true });
    expect(noTerminal.code).toBe(2);
    expect(JSON.parse(noTerminal.out)).toMatchObject({ error: { code: 'CONFIRMATION_REQUIRED' } });
  });

  it('the binary refuses to apply without a terminal and without --yes', async () => {
    const file = join(dir, 'binary.yaml');
    writeFileSync(file, FILE);
    const res = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'packages/server/src/cli/main.ts', 'apply', '-f', file],
      { cwd: ROOT, env: { ...process.env, ...env, TSX_TSCONFIG_PATH: 'tsconfig.test.json' } },
    ).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('punctual: CONFIRMATION_REQUIRED: not applied: no terminal to ask on');
  });
});

describe('export', () => {
  it('writes the schedules in the file format; applying the export plans no change', async () => {
    await removeAll();
    await applyText(FILE, { yes: true });
    for (const format of ['yaml', 'json'] as const) {
      const output = join(dir, `export.${format}`);
      const exported = await run(exportSchedules, { env, output });
      expect(exported).toMatchObject({ code: 0, err: `punctual: exported 2 schedule(s) to ${output}\n` });
      const back = await run(apply, { env, file: output, yes: true });
      expect(back.code).toBe(0);
      expect(back.out).toContain('Plan: 0 to create, 0 to update, 0 to delete, 2 unchanged.\n');
    }
    const yaml = await run(exportSchedules, { env });
    expect(yaml.out).toBe(
      `schedules:
  - key: reports.daily
    summary: The daily report
    spec: 0 9 * * 1-5
    tz: Europe/Paris
    target:
      script:
        source: ${SCRIPT}
    payload:
      report: daily
    labels:
      team: sales
    state: active
  - key: sync.rates
    spec: "@every 1h"
    tz: UTC
    target:
      script:
        source: ${SCRIPT}
    policies:
      retry:
        maxAttempts: 5
      overlap: skip
    jitter: 30000
    state: paused
`,
    );
  });
});
