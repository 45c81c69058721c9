// The terminal log: one line per event (request, run transition, start, stop), Fastify's duplicate
// "listening" line left out, a stack cut to one line; JSON logs are left as pino writes them.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serve } from '../src/cli/commands/serve.js';
import type { CliIo } from '../src/cli/io.js';
import { formatLogChunk, formatLogLine } from '../src/log-line.js';
import { createLogger } from '../src/logger.js';

const T = Date.parse('2026-01-05T09:00:01.234Z');
const plain = { colorize: false };

describe('formatLogLine', () => {
  it('writes a request as method, path, status and duration, then its tenant and key prefix', () => {
    const line = formatLogLine(
      {
        level: 30,
        time: T,
        pid: 1,
        hostname: 'h',
        service: 'punctual',
        reqId: 'req-1',
        tenantId: 'acme',
        apiKey: 'pk_abcdefgh',
        method: 'GET',
        path: '/v1/schedules',
        route: '/v1/schedules',
        status: 401,
        ms: 8,
        msg: 'request',
      },
      plain,
    );
    expect(line).toBe('09:00:01.234Z INFO  GET /v1/schedules 401 8ms tenantId=acme apiKey=pk_abcdefgh');
  });

  it('writes a run transition on one line with its ids', () => {
    const line = formatLogLine(
      {
        level: 40,
        time: T,
        service: 'punctual',
        component: 'scheduler',
        tenantId: 'acme',
        scheduleKey: 'nightly report',
        runId: '42',
        occurrenceId: '7:1767603600000',
        attempt: 3,
        error: { code: 'HTTP_500', message: 'upstream\nsaid no' },
        msg: 'run failed for good',
      },
      plain,
    );
    expect(line).toBe(
      '09:00:01.234Z WARN  run failed for good tenantId=acme scheduleKey="nightly report" runId=42 ' +
        'occurrenceId=7:1767603600000 attempt=3 error={"code":"HTTP_500","message":"upstream\\nsaid no"}',
    );
    expect(line).not.toContain('\n');
  });

  it('cuts an error with a stack to its first line', () => {
    const line = formatLogLine(
      {
        level: 50,
        time: T,
        err: { type: 'Error', message: 'disk on fire\nsecond line', stack: 'Error: disk on fire\n    at x' },
        where: 'worker',
        msg: 'engine error',
      },
      plain,
    );
    expect(line).toBe('09:00:01.234Z ERROR engine error err="Error: disk on fire ..." where=worker');
  });

  it("leaves out Fastify's own listening line (the service writes one with the database)", () => {
    expect(
      formatLogLine({ level: 30, time: T, msg: 'Server listening at http://127.0.0.1:8080' }, plain),
    ).toBe(null);
  });

  it('colours the level only when asked', () => {
    const coloured = formatLogLine({ level: 30, time: T, msg: 'stopped' }, { colorize: true });
    expect(coloured).toBe('09:00:01.234Z \x1b[32mINFO \x1b[39m stopped');
    expect(formatLogLine({ level: 30, time: T, msg: 'stopped' }, plain)).toBe('09:00:01.234Z INFO  stopped');
  });

  it('passes a line that is not JSON through, and formats every line of a chunk', () => {
    const chunk = `${JSON.stringify({ level: 30, time: T, msg: 'a' })}\nnot json\n${JSON.stringify({ level: 20, time: T, msg: 'b' })}\n`;
    expect(formatLogChunk(chunk, plain)).toBe('09:00:01.234Z INFO  a\nnot json\n09:00:01.234Z DEBUG b\n');
  });
});

describe('createLogger', () => {
  function sink(): { stream: Writable; text: () => string } {
    const chunks: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        chunks.push(chunk.toString());
        done();
      },
    });
    return { stream, text: () => chunks.join('') };
  }

  it('writes JSON lines unchanged when the format is json', async () => {
    const out = sink();
    const logger = await createLogger({ logLevel: 'info', logFormat: 'json' }, { destination: out.stream });
    logger.info({ tenantId: 'acme', nested: { a: 1 } }, 'hello');
    const record = JSON.parse(out.text()) as Record<string, unknown>;
    expect(record).toMatchObject({
      level: 30,
      service: 'punctual',
      tenantId: 'acme',
      nested: { a: 1 },
      msg: 'hello',
    });
  });

  it('writes one terminal line per event when pretty', async () => {
    const out = sink();
    const logger = await createLogger({ logLevel: 'info', logFormat: 'pretty' }, { destination: out.stream });
    logger.info({ targets: ['handler', 'webhook', 'script'] }, 'targets enabled');
    logger.child({ component: 'scheduler' }).info({ tenantId: 'acme', runId: '1' }, 'run succeeded');
    const lines = out.text().trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3}Z INFO {2}targets enabled targets=\["handler","webhook","script"\]$/,
    );
    expect(lines[1]).toMatch(/^\d\d:\d\d:\d\d\.\d{3}Z INFO {2}run succeeded tenantId=acme runId=1$/);
  });
});

describe('serve with pretty logs', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'punctual-log-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('logs one line per request and a single listening line', async () => {
    const logs: string[] = [];
    const stop = new AbortController();
    const requested: Promise<void>[] = [];
    const io: CliIo = {
      stdout: (text) => {
        const url = /serving on (\S+)/.exec(text)?.[1];
        if (url === undefined) return;
        requested.push(
          (async () => {
            await fetch(`${url}/v1/schedules`);
            await fetch(`${url}/v1/nothing-here`);
          })().finally(() => stop.abort()),
        );
      },
      stderr: () => undefined,
      now: () => Date.now(),
    };
    const logDestination = new Writable({
      write(chunk: Buffer, _enc, done) {
        logs.push(chunk.toString());
        done();
      },
    });
    const env = {
      PUNCTUAL_DATABASE_PATH: join(dir, 'punctual.db'),
      PUNCTUAL_PORT: '0',
      PUNCTUAL_SHUTDOWN_GRACE: '1s',
      PUNCTUAL_LOG_FORMAT: 'pretty',
      PUNCTUAL_SCRIPTS: 'off',
    };
    const code = await serve({ env, signal: stop.signal, logDestination, isTty: false }, io);
    await Promise.all(requested);
    expect(code).toBe(0);
    const lines = logs.join('').trimEnd().split('\n');
    // Every line is one event: a time, a level, then the message.
    for (const line of lines)
      expect(line).toMatch(/^\d\d:\d\d:\d\d\.\d{3}Z (TRACE|DEBUG|INFO |WARN |ERROR|FATAL) \S/);
    expect(lines.filter((l) => /listening/i.test(l))).toHaveLength(1);
    expect(lines.filter((l) => l.includes(' GET /v1/schedules 401 '))).toHaveLength(1);
    expect(lines.filter((l) => l.includes(' GET /v1/nothing-here 40'))).toHaveLength(1);
    expect(lines.at(-1)).toMatch(/ stopped$/);
  });
});
