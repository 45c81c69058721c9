// `punctual serve` started while its PostgreSQL does not answer (a TCP proxy the test cuts) waits for it with
// backoff, answering 503 NOT_READY meanwhile, and serves once it answers; PUNCTUAL_DATABASE_WAIT=0 exits at
// once (issue 21, item 7).

import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TcpProxy } from '../../punctual/test/support/tcp-proxy.js';
import { serve } from '../src/cli/commands/serve.js';
import type { CliIo } from '../src/cli/io.js';

const PG_URL = process.env.PUNCTUAL_TEST_PG_URL ?? '';

interface Line {
  msg: string;
  port?: number;
  attempt?: number;
  retryInMs?: number;
}

// Without PostgreSQL the suite below is skipped, or fails here when PUNCTUAL_REQUIRE_SERVICES=1.
describe.skipIf(PG_URL !== '' || process.env.PUNCTUAL_REQUIRE_SERVICES !== '1')('PostgreSQL', () => {
  it('is required', () => {
    throw new Error('PUNCTUAL_REQUIRE_SERVICES=1 but PUNCTUAL_TEST_PG_URL is not set');
  });
});

describe.skipIf(PG_URL === '')('serve while the database does not answer', () => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  let proxy: TcpProxy;
  let url: string;

  beforeEach(async () => {
    ({ proxy, url } = await TcpProxy.forUrl(PG_URL));
    proxy.cut();
  });
  afterEach(async () => {
    await proxy.close();
    const pg = (await import('pg')).default;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  });

  function start(
    wait: string,
    onLine: (l: Line) => void,
    onOut: (text: string) => void,
    signal: AbortSignal,
  ) {
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = {
      stdout: (text) => {
        out.push(text);
        onOut(text);
      },
      stderr: (text) => void err.push(text),
      now: () => Date.now(),
    };
    const logDestination = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const text of chunk.toString().split('\n').filter(Boolean)) onLine(JSON.parse(text) as Line);
        done();
      },
    });
    const env = {
      PUNCTUAL_DATABASE_URL: url,
      PUNCTUAL_PG_SCHEMA: schema,
      PUNCTUAL_PORT: '0',
      PUNCTUAL_DATABASE_WAIT: wait,
      PUNCTUAL_SCRIPTS: 'off',
      PUNCTUAL_LOG_FORMAT: 'json',
    };
    return serve({ env, signal, logDestination, isTty: false }, io).then((code) => ({
      code,
      out: out.join(''),
      err: err.join(''),
    }));
  }

  it('waits with backoff, answers 503 NOT_READY meanwhile, then serves', async () => {
    const stop = new AbortController();
    const waits: Line[] = [];
    const checks: Record<string, unknown> = {};
    let probed: Promise<void> | undefined;
    let served: Promise<void> | undefined;
    const result = start(
      '1m',
      (l) => {
        if (l.msg.startsWith('not ready: the database does not answer')) waits.push(l);
        if (l.msg.startsWith('answering 503 NOT_READY')) {
          probed = (async () => {
            const base = `http://127.0.0.1:${l.port}`;
            const ready = await fetch(`${base}/readyz`);
            checks.readyz = {
              status: ready.status,
              retryAfter: ready.headers.get('retry-after'),
              body: await ready.json(),
            };
            checks.api = (await fetch(`${base}/v1/schedules`)).status;
            checks.healthz = (await fetch(`${base}/healthz`)).status;
            proxy.restore();
          })();
        }
      },
      (text) => {
        const base = /serving on (\S+)/.exec(text)?.[1];
        if (base)
          served = (async () => {
            checks.served = (await fetch(`${base}/readyz`)).status;
            stop.abort();
          })();
      },
      stop.signal,
    );
    const { code, err } = await result;
    await probed;
    await served;
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(waits.length).toBeGreaterThanOrEqual(1);
    expect(waits[0]).toMatchObject({ attempt: 1, retryInMs: 250 });
    if (waits[1]) expect(waits[1]).toMatchObject({ attempt: 2, retryInMs: 500 });
    expect(checks).toEqual({
      readyz: {
        status: 503,
        retryAfter: '5',
        body: {
          error: { code: 'NOT_READY', message: expect.any(String), details: { database: 'unreachable' } },
        },
      },
      api: 503,
      healthz: 200,
      served: 200,
    });
  });

  it('exits 1 at once with PUNCTUAL_DATABASE_WAIT=0', async () => {
    const lines: Line[] = [];
    const { code, err } = await start(
      '0',
      (l) => lines.push(l),
      () => {},
      new AbortController().signal,
    );
    expect(code).toBe(1);
    expect(err).toMatch(/^punctual: cannot start: /);
    expect(lines.some((l) => l.msg.startsWith('not ready'))).toBe(false);
  });
});
