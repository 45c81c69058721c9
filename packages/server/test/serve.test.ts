// `punctual serve` called as a function: it opens the database (creating its folder), listens, prints where
// the API, docs and dashboard are and, on the first start only, the default tenant's key; logs are JSON lines
// that never carry the key; a bad setting exits 2 naming it; the stop signal stops it gracefully.

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { serve } from '../src/cli/commands/serve.js';
import type { CliIo } from '../src/cli/io.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'punctual-serve-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Runs serve until it prints its banner, then signals it to stop; returns what it printed and logged. */
async function runOnce(
  env: Record<string, string>,
): Promise<{ code: number; out: string; err: string; logs: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const logs: string[] = [];
  const stop = new AbortController();
  const io: CliIo = {
    stdout: (text) => {
      out.push(text);
      if (text.includes('Stop with Ctrl+C')) {
        // Prove the API answers before stopping.
        const url = /serving on (\S+)/.exec(text)?.[1];
        void fetch(`${url}/healthz`).then(
          (r) => {
            out.push(`healthz ${r.status}\n`);
            stop.abort();
          },
          () => stop.abort(),
        );
      }
    },
    stderr: (text) => void err.push(text),
    now: () => Date.now(),
  };
  const logDestination = new Writable({
    write(chunk: Buffer, _enc, done) {
      logs.push(chunk.toString());
      done();
    },
  });
  const code = await serve({ env, signal: stop.signal, logDestination, isTty: false }, io);
  return { code, out: out.join(''), err: err.join(''), logs: logs.join('') };
}

it('prints the URLs and, on the first start only, the API key; stops when signalled', async () => {
  const path = join(dir, 'nested', 'punctual.db');
  const env = { PUNCTUAL_DATABASE_PATH: path, PUNCTUAL_PORT: '0', PUNCTUAL_SHUTDOWN_GRACE: '1s' };

  const first = await runOnce(env);
  expect(first.code).toBe(0);
  expect(first.err).toBe('');
  expect(existsSync(path)).toBe(true);
  const url = /serving on (http:\/\/127\.0\.0\.1:\d+) \(SQLite (.+)\)/.exec(first.out);
  expect(url?.[2]).toBe(path);
  expect(first.out).toContain(`API        ${url?.[1]}/v1`);
  expect(first.out).toContain(`API docs   ${url?.[1]}/docs`);
  expect(first.out).toContain(`Dashboard  ${url?.[1]}/`);
  expect(first.out).toContain('healthz 200');
  const key = /\n {2}(pk_[A-Za-z0-9]{32})\n/.exec(first.out)?.[1];
  expect(key).toBeDefined();
  expect(first.out).toContain('first start: created the tenant "default"');
  expect(first.out.trimEnd().split('\n').at(-1)).toBe('punctual: stopped');

  // Logs are JSON lines, and the key is never in them.
  const lines = first.logs
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { msg: string; level: number });
  expect(lines.map((l) => l.msg)).toEqual(expect.arrayContaining(['listening', 'stopped']));
  expect(first.logs).not.toContain(key);

  const second = await runOnce(env);
  expect(second.code).toBe(0);
  expect(second.out).not.toContain('pk_');
  expect(second.out).not.toContain('first start');
});

it('refuses a bad setting with exit code 2, naming it, and starts nothing', async () => {
  const path = join(dir, 'punctual.db');
  const res = await runOnce({
    PUNCTUAL_DATABASE_PATH: path,
    PUNCTUAL_PORT: 'abc',
    PUNCTUAL_LOG_LEVEL: 'loud',
  });
  expect(res.code).toBe(2);
  expect(res.out).toBe('');
  expect(res.err).toContain(
    'PUNCTUAL_PORT must be an integer between 0 and 65535 (0 picks a free port), got "abc"',
  );
  expect(res.err).toContain('PUNCTUAL_LOG_LEVEL must be one of');
  expect(existsSync(path)).toBe(false);
});

it('reports a port already in use as a start failure (exit 1)', async () => {
  const { createServer } = await import('node:net');
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const port = String((taken.address() as { port: number }).port);
  try {
    const res = await runOnce({ PUNCTUAL_DATABASE_PATH: join(dir, 'p.db'), PUNCTUAL_PORT: port });
    expect(res.code).toBe(1);
    expect(res.err).toMatch(/^punctual: cannot start: .*EADDRINUSE/);
  } finally {
    taken.close();
  }
});
