// `punctual schedules preview <key>` against the assembled service on a real socket (port 0, SQLite in a
// temporary folder): a saved schedule's next occurrences as they will run, an excluded date and a skipped
// occurrence dropped (named with --explain), a moved one at its new instant and a payload override noted, in
// words and as the route's JSON; an unknown schedule and a bad count refused with their codes. The service's
// clock is real, so the instants are read from the schedule's own occurrences, never assumed from today.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schedulesPreview } from '../src/cli/commands/schedules-preview.js';
import type { CliIo } from '../src/cli/io.js';
import { loadConfig } from '../src/config.js';
import { createService, type Service } from '../src/service.js';

let dir: string;
let service: Service;
let env: Record<string, string>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'punctual-cli-schedule-preview-'));
  const config = loadConfig({
    PUNCTUAL_DATABASE_PATH: join(dir, 'punctual.db'),
    PUNCTUAL_PORT: '0',
    PUNCTUAL_SHUTDOWN_GRACE: '1s',
    PUNCTUAL_DEFAULT_RATE_LIMIT: '10000',
  });
  service = await createService(config, { logger: pino({ level: 'silent' }), processMetrics: false });
  const { url } = await service.start();
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

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${env.PUNCTUAL_URL}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${env.PUNCTUAL_API_KEY}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: await res.json() };
}

const schedule = (extra: Record<string, unknown> = {}) => ({
  spec: '0 9 1 * *',
  tz: 'Europe/Berlin',
  target: { webhook: { url: 'https://example.com/hook' } },
  ...extra,
});

describe('schedules preview', () => {
  it('lists the occurrences as they will run, with their notes and, with --explain, the dropped ones', async () => {
    // Monthly: its occurrences are weeks apart and none runs during the test (the first is not touched: it
    // may be due within seconds on the first of a month).
    expect((await api('PUT', '/v1/schedules/cli.preview', schedule())).status).toBe(201);
    const listed = await api('GET', '/v1/schedules/cli.preview/occurrences?count=5');
    const [, skipped, excluded, moved, payload] = listed.body.occurrences.map(
      (o: { scheduledFor: string }) => o.scheduledFor as string,
    ) as string[];
    const closed = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(
      Date.parse(excluded!),
    );
    const cal = await api('PUT', '/v1/calendars/closed', {
      tz: 'Europe/Berlin',
      dates: [{ start: closed, label: 'Stocktaking' }],
    });
    expect(cal.status).toBe(201);
    expect((await api('PUT', '/v1/schedules/cli.preview', schedule({ exclude: ['closed'] }))).status).toBe(
      200,
    );
    const movedTo = new Date(Date.parse(moved!) + 5 * 3_600_000).toISOString();
    for (const [instant, body] of [
      [skipped, { kind: 'skip' }],
      [moved, { kind: 'move', moveTo: movedTo }],
      [payload, { kind: 'payload', payload: { x: 1 } }],
    ] as const) {
      const res = await api('PUT', `/v1/schedules/cli.preview/occurrences/${instant}`, body);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }

    const json = await run(schedulesPreview, {
      env,
      key: 'cli.preview',
      count: 6,
      explain: true,
      json: true,
    });
    expect(json).toMatchObject({ code: 0, err: '' });
    const p = JSON.parse(json.out);
    // The route's body, as is.
    expect(p).toEqual((await api('GET', '/v1/schedules/cli.preview/preview?count=6&explain=true')).body);
    const at = p.occurrences.map((o: { at: string }) => o.at);
    expect(p.occurrences).toHaveLength(6);
    expect(at).not.toContain(skipped);
    expect(at).not.toContain(excluded);
    expect(at).not.toContain(moved);
    expect(p.occurrences).toContainEqual({ at: movedTo, notes: [{ kind: 'moved', from: moved }] });
    expect(p.occurrences).toContainEqual({ at: payload, notes: [{ kind: 'payloadOverridden' }] });
    expect(p.dropped).toEqual(
      expect.arrayContaining([
        { at: skipped, reason: 'override' },
        { at: excluded, reason: 'calendar', calendar: 'closed', label: 'Stocktaking' },
      ]),
    );
    expect(p.next).toEqual(at);

    const words = await run(schedulesPreview, { env, key: 'cli.preview', count: 6, explain: true });
    expect(words).toMatchObject({ code: 0, err: '' });
    const lines = words.out.split('\n');
    expect(lines[0]).toBe(p.description);
    expect(lines).toContainEqual(
      expect.stringMatching(
        new RegExp(`^${movedTo}  \\w{3} \\S+ \\S+ \\+0[12]:00 Europe/Berlin  \\(moved from ${moved}\\)$`),
      ),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(new RegExp(`^${payload}  .* Europe/Berlin  \\(payload overridden\\)$`)),
    );
    expect(lines).toContain(`dropped ${skipped}  override`);
    expect(lines).toContain(`dropped ${excluded}  calendar (closed: Stocktaking)`);
    // Without --explain, nothing dropped is listed; the default count is the route's (10).
    const plain = await run(schedulesPreview, { env, key: 'cli.preview' });
    expect(plain.out).not.toContain('dropped');
    expect(plain.out.trimEnd().split('\n')).toHaveLength(11);
  });

  it('refuses an unknown schedule and a count out of range with their codes', async () => {
    const unknown = await run(schedulesPreview, { env, key: 'cli.nope' });
    expect(unknown.code).not.toBe(0);
    expect(unknown.err).toContain('SCHEDULE_NOT_FOUND');
    const json = await run(schedulesPreview, { env, key: 'cli.nope', json: true });
    expect(JSON.parse(json.out)).toMatchObject({ error: { code: 'SCHEDULE_NOT_FOUND' } });
    expect((await api('PUT', '/v1/schedules/cli.count', schedule())).status).toBe(201);
    const bad = await run(schedulesPreview, { env, key: 'cli.count', count: 0 });
    expect(bad.code).not.toBe(0);
    expect(bad.err).toMatch(/punctual: [A-Z_]+: .*count/);
  });
});
