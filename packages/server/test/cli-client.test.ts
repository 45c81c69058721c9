// The commands that talk to a running service, called as functions against the assembled service on a real
// socket (port 0, SQLite in a temporary folder): schedules put/ls/get/pause/resume/trigger/rm and runs
// ls/get, --url/--key and their PUNCTUAL_URL/PUNCTUAL_API_KEY defaults, --json printing the API's JSON, and
// API errors printed as their code and message with a non-zero exit code.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runsGet, runsList } from '../src/cli/commands/runs.js';
import {
  schedulesHistory,
  schedulesPutDryRun,
  schedulesRollback,
} from '../src/cli/commands/schedules-history.js';
import {
  schedulesOccurrences,
  schedulesOverride,
  schedulesUnoverride,
} from '../src/cli/commands/schedules-overrides.js';
import {
  schedulesGet,
  schedulesList,
  schedulesPause,
  schedulesPut,
  schedulesRemove,
  schedulesResume,
  schedulesTrigger,
} from '../src/cli/commands/schedules.js';
import type { CliIo } from '../src/cli/io.js';
import { loadConfig } from '../src/config.js';
import { createService, type Service } from '../src/service.js';

let dir: string;
let service: Service;
let receiver: Server;
let url: string;
let key: string;
let hook: string;
let env: Record<string, string>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'punctual-cli-client-'));
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const config = loadConfig({
    PUNCTUAL_DATABASE_PATH: join(dir, 'punctual.db'),
    PUNCTUAL_PORT: '0',
    PUNCTUAL_ALLOW_PRIVATE_TARGETS: '127.0.0.1/32',
    PUNCTUAL_SHUTDOWN_GRACE: '1s',
    PUNCTUAL_DEFAULT_RATE_LIMIT: '10000',
  });
  service = await createService(config, { logger: pino({ level: 'silent' }), processMetrics: false });
  ({ url } = await service.start());
  key = service.bootstrap!.apiKey;
  env = { PUNCTUAL_URL: url, PUNCTUAL_API_KEY: key };
});

afterAll(async () => {
  await service?.close();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
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
const parse = (text: string): Record<string, any> => JSON.parse(text) as Record<string, any>;

describe('schedules history, rollback and put --dry-run', () => {
  it('dry-runs a change (nothing written), lists the history and rolls back', async () => {
    const base = { env, key: 'cli.history', tz: 'UTC', webhook: hook };
    expect((await run(schedulesPut, { ...base, spec: '0 9 * * *' })).code).toBe(0);
    const dry = await run(schedulesPutDryRun, { ...base, spec: '0 10 * * *' });
    expect(dry).toMatchObject({ code: 0, err: '' });
    expect(dry.out).toMatch(/^punctual: dry run, nothing written: schedule cli\.history would be updated/);
    expect(dry.out).toContain('  spec: "0 9 * * *" -> "0 10 * * *"\n');
    expect(dry.out).toMatch(/NEXT BEFORE\s+NEXT AFTER/);
    const still = parse((await run(schedulesGet, { env, key: 'cli.history', json: true })).out);
    expect(still.version).toBe(1);

    expect((await run(schedulesPut, { ...base, spec: '0 10 * * *' })).code).toBe(0);
    const history = await run(schedulesHistory, { env, key: 'cli.history' });
    expect(history.code).toBe(0);
    expect(history.out).toMatch(/^version 2 {2}\S+ {2}updated {2}by apiKey:/);
    expect(history.out).toContain('    spec: "0 9 * * *" -> "0 10 * * *"\n');
    const json = parse((await run(schedulesHistory, { env, key: 'cli.history', json: true })).out);
    expect(json.items.map((r: { change: string }) => r.change)).toEqual(['updated', 'created']);

    const back = await run(schedulesRollback, { env, key: 'cli.history', version: '1' });
    expect(back.out).toBe(
      'punctual: rolled schedule cli.history back to the content of version 1, now version 3\n',
    );
    const again = await run(schedulesRollback, { env, key: 'cli.history', version: 1 });
    expect(again.out).toMatch(/already has the content of version 1: unchanged/);
    const unknown = await run(schedulesRollback, { env, key: 'cli.history', version: 42 });
    expect(unknown.code).not.toBe(0);
    expect(unknown.err).toContain('REVISION_UNKNOWN');
  });
});

describe('schedules', () => {
  it('puts from options, then updates; get and ls show it (people and --json)', async () => {
    const created = await run(schedulesPut, {
      env,
      key: 'reports.daily',
      spec: '0 9 * * 1-5',
      tz: 'Europe/Paris',
      webhook: hook,
      payload: '{"report":"daily"}',
    });
    expect(created).toMatchObject({ code: 0, err: '' });
    expect(created.out).toMatch(/^punctual: created schedule reports\.daily \(version 1\): /);
    expect(created.out).toMatch(/\n {2}next: \d{4}-\d\d-\d\dT/);

    const updated = await run(schedulesPut, {
      env,
      key: 'reports.daily',
      spec: '0 10 * * 1-5',
      tz: 'Europe/Paris',
      webhook: hook,
      json: true,
    });
    expect(parse(updated.out)).toMatchObject({
      key: 'reports.daily',
      version: 2,
      spec: '0 10 * * 1-5',
      payload: null,
    });

    const got = await run(schedulesGet, { env, key: 'reports.daily' });
    expect(got.out).toMatch(/^key {9}reports\.daily\n/);
    expect(got.out).toContain('spec        0 10 * * 1-5  (Europe/Paris)');
    expect(got.out).toContain(`target      webhook ${hook}`);
    expect(got.out).toContain('state       active, version 2');
    const gotJson = parse((await run(schedulesGet, { env, key: 'reports.daily', json: true })).out);
    const direct = await fetch(`${url}/v1/schedules/reports.daily`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(gotJson).toEqual(await direct.json());

    const ls = await run(schedulesList, { env });
    expect(ls.out.split('\n')[0]).toMatch(/^KEY\s+STATE\s+SPEC\s+TZ\s+NEXT\s+TARGET$/);
    expect(ls.out).toMatch(/\nreports\.daily\s+active\s+0 10 \* \* 1-5\s+Europe\/Paris\s+\S+\s+webhook /);
  });

  it('puts a summary, labels (--label k=v) and --paused; ls --label filters; get shows them', async () => {
    const put = (key: string, extra: Record<string, unknown>) =>
      run(schedulesPut, { env, key, spec: '0 9 * * *', webhook: hook, json: true, ...extra });
    const created = parse(
      (
        await put('labelled.mail', {
          summary: 'Digest for sales',
          label: ['jobType=email', 'team=sales'],
          paused: true,
        })
      ).out,
    );
    expect(created).toMatchObject({
      summary: 'Digest for sales',
      labels: { jobType: 'email', team: 'sales' },
      state: 'paused',
    });
    await put('labelled.sms', { label: ['jobType=sms'] });
    const ls = await run(schedulesList, { env, prefix: 'labelled.', label: ['jobType=email'] });
    expect(ls.out).toMatch(/\nlabelled\.mail\s+paused\s/);
    expect(ls.out).not.toContain('labelled.sms');
    const both = parse(
      (await run(schedulesList, { env, label: ['jobType:email', 'team=sales'], json: true })).out,
    );
    expect(both.items.map((x: { key: string }) => x.key)).toEqual(['labelled.mail']);
    const got = await run(schedulesGet, { env, key: 'labelled.mail' });
    expect(got.out).toContain('summary     Digest for sales');
    expect(got.out).toContain('labels      jobType=email team=sales');
    expect(got.out).toContain('fired       0 run(s) executed; last fired never, last succeeded never');
    const bad = await put('labelled.bad', { label: ['jobType'] });
    expect(bad.code).not.toBe(0);
    expect(bad.out + bad.err).toContain('--label must be key=value');
  });

  it('puts --dst-gap / --dst-repeat; get shows the DST choice; DST_INVALID for @every', async () => {
    const put = (key: string, extra: Record<string, unknown>) =>
      run(schedulesPut, { env, key, webhook: hook, json: true, ...extra });
    const created = parse((await put('dst.cron', { spec: '30 2 * * *', dstGap: 'skip' })).out);
    expect(created.dst).toEqual({ gap: 'skip', repeat: 'first' });
    const got = await run(schedulesGet, { env, key: 'dst.cron' });
    expect(got.out).toContain('dst         gap skip, repeat first');
    const refused = await put('dst.every', { spec: '@every 1h', dstRepeat: 'both' });
    expect(refused.code).not.toBe(0);
    expect(refused.out + refused.err).toContain('DST_INVALID');
  });

  it('puts --expect-success-within; get shows it; none removes it; EXPECT_INVALID for a bad one', async () => {
    const put = (extra: Record<string, unknown>) =>
      run(schedulesPut, { env, key: 'expect.daily', spec: '0 9 * * *', webhook: hook, json: true, ...extra });
    const created = parse((await put({ expectSuccessWithin: '15m' })).out);
    expect(created.expect).toEqual({ successWithinMs: 900_000 });
    const got = await run(schedulesGet, { env, key: 'expect.daily' });
    expect(got.out).toContain('expect      success within 900s of each occurrence');
    expect(parse((await put({ expectSuccessWithin: 'none' })).out).expect).toBeNull();
    const refused = await put({ expectSuccessWithin: '0s' });
    expect(refused.code).not.toBe(0);
    expect(refused.out + refused.err).toContain('EXPECT_INVALID');
  });

  it('puts --id-template on the webhook target; refuses it for a script and an unknown placeholder', async () => {
    const put = (extra: Record<string, unknown>) =>
      run(schedulesPut, { env, key: 'ids.webhook', spec: '0 9 * * *', json: true, ...extra });
    const ok = parse((await put({ webhook: hook, idTemplate: '{key}-{scheduledForSeconds}' })).out);
    expect(ok.target).toEqual({ webhook: { url: hook, idTemplate: '{key}-{scheduledForSeconds}' } });
    const unknown = await put({ webhook: hook, idTemplate: '{key}-{when}' });
    expect(unknown.code).not.toBe(0);
    expect(parse(unknown.out)).toMatchObject({ error: { code: 'ID_TEMPLATE_INVALID' } });
    const script = join(dir, 'ids.js');
    writeFileSync(script, 'export default () => 1;\n');
    const refused = await put({ script, idTemplate: '{key}' });
    expect(refused.code).not.toBe(0);
    expect(refused.out + refused.err).toContain('--id-template needs a webhook or broker target');
  });

  it('puts from a --file that options override, and refuses contradictions before any request', async () => {
    const file = join(dir, 'schedule.json');
    writeFileSync(
      file,
      JSON.stringify({
        key: 'sync.rates',
        spec: '@every 1h',
        target: { webhook: { url: hook } },
        policies: { misfire: 'runAll', retry: { maxAttempts: 5 } },
        startAt: '2030-01-01T00:00:00Z',
      }),
    );
    const r = await run(schedulesPut, {
      env,
      key: 'sync.rates',
      file,
      payload: '{"base":"EUR"}',
      json: true,
    });
    expect(r.code).toBe(0);
    expect(parse(r.out)).toMatchObject({
      key: 'sync.rates',
      spec: '@every 1h',
      payload: { base: 'EUR' },
      startAt: '2030-01-01T00:00:00.000Z',
      policies: { misfire: 'runAll', retry: { maxAttempts: 5 } },
    });

    const other = await run(schedulesPut, { env, key: 'other', file });
    expect(other.code).toBe(2);
    expect(other.err).toContain('ARGUMENT_INVALID: --file names the key "sync.rates"');
    const both = await run(schedulesPut, { env, key: 'x', spec: '@every 1h', webhook: hook, script: file });
    expect(both.err).toContain('--webhook or --script, not both');
    const noSpec = await run(schedulesPut, { env, key: 'x', webhook: hook, json: true });
    expect(parse(noSpec.out)).toEqual({
      error: { code: 'ARGUMENT_INVALID', message: '--spec (or "spec" in --file) is required' },
    });
    const badPayload = await run(schedulesPut, {
      env,
      key: 'x',
      spec: '@every 1h',
      webhook: hook,
      payload: '{',
    });
    expect(badPayload.code).toBe(2);
    expect(badPayload.err).toContain('--payload must be JSON');
    expect((await run(schedulesGet, { env, key: 'x' })).code).toBe(1);
  });

  it('pauses with a note, resumes, triggers a run that runs ls and get show, and deletes', async () => {
    await run(schedulesPut, { env, key: 'ping', spec: '@every 1h', webhook: hook });
    const paused = await run(schedulesPause, { env, key: 'ping', cancelPending: true, note: 'maintenance' });
    expect(paused.out).toBe('punctual: paused schedule ping; its scheduled runs are cancelled\n');
    const pausedJson = parse((await run(schedulesGet, { env, key: 'ping', json: true })).out);
    expect(pausedJson).toMatchObject({ state: 'paused', note: 'maintenance', nextFireAt: null });
    // NEXT says paused rather than an instant that will not fire.
    expect((await run(schedulesList, { env, state: 'paused' })).out).toMatch(
      /\nping\s+paused\s+@every 1h\s+UTC\s+paused\s+webhook /,
    );
    expect((await run(schedulesGet, { env, key: 'ping' })).out).toContain('\nnext        paused\n');

    const resumed = await run(schedulesResume, { env, key: 'ping' });
    expect(resumed.out).toMatch(/^punctual: resumed schedule ping; next: \d{4}-/);

    const trig = await run(schedulesTrigger, { env, key: 'ping', payload: '{"manual":true}', json: true });
    const runId = parse(trig.out).id as string;
    expect(parse(trig.out)).toMatchObject({ scheduleKey: 'ping', kind: 'manual' });

    const runs = await run(runsList, { env, schedule: 'ping', json: true });
    expect(parse(runs.out).items.map((r: { id: string }) => r.id)).toContain(runId);
    const table = await run(runsList, { env, schedule: 'ping' });
    expect(table.out.split('\n')[0]).toMatch(
      /^ID\s+SCHEDULE\s+STATE\s+KIND\s+SCHEDULED FOR\s+ATTEMPT\s+REASON$/,
    );
    expect(table.out).toMatch(new RegExp(`\\n${runId}\\s+ping\\s+\\w+\\s+manual\\s`));
    const one = await run(runsGet, { env, id: runId });
    expect(one.out).toContain(`run          ${runId} (manual) of ping`);

    const removed = await run(schedulesRemove, { env, key: 'ping' });
    expect(removed.out).toContain('deleted schedule ping');
    const gone = await run(schedulesGet, { env, key: 'ping' });
    expect(gone).toMatchObject({ code: 1, out: '' });
    expect(gone.err).toBe('punctual: SCHEDULE_NOT_FOUND: no schedule "ping"\n');
  });

  it('pages ls with --limit and --prefix', async () => {
    for (const k of ['page.a', 'page.b', 'page.c'])
      await run(schedulesPut, { env, key: k, spec: '@every 1h', webhook: hook });
    const first = await run(schedulesList, { env, prefix: 'page.', limit: 2 });
    const cursor = /\(more: --cursor (\S+)\)/.exec(first.out)?.[1];
    expect(cursor).toBeDefined();
    const second = parse(
      (await run(schedulesList, { env, prefix: 'page.', limit: 2, cursor, json: true })).out,
    );
    expect(second.items.map((s: { key: string }) => s.key)).toEqual(['page.c']);
    expect(second.nextCursor).toBeNull();
  });
});

describe('errors', () => {
  it("prints the API's error code and message, or its JSON with --json, and exits 1", async () => {
    const spec = await run(schedulesPut, { env, key: 'bad', spec: '0 0 31 2 *', webhook: hook });
    expect(spec.code).toBe(1);
    expect(spec.err).toMatch(/^punctual: SPEC_NEVER_FIRES: /);
    const json = await run(schedulesPut, { env, key: 'bad', spec: 'nope', webhook: hook, json: true });
    expect(json.code).toBe(1);
    expect(parse(json.out).error).toMatchObject({ code: 'SPEC_INVALID', details: { field: 'spec' } });
    const limit = await run(schedulesList, { env, limit: 'many' });
    expect(limit.err).toMatch(/^punctual: VALIDATION_FAILED: .*limit/);
  });

  it('uses --url and --key over the environment; refuses a missing key; reports an unreachable service', async () => {
    const wrong = await run(schedulesList, { env, apiKey: `pk_${'x'.repeat(32)}` });
    expect(wrong.code).toBe(1);
    expect(wrong.err).toBe('punctual: UNAUTHORIZED: the API key is not valid\n');
    const explicit = await run(schedulesList, { env: {}, url, apiKey: key, json: true });
    expect(explicit.code).toBe(0);

    const noKey = await run(runsList, { env: { PUNCTUAL_URL: url } });
    expect(noKey.code).toBe(2);
    expect(noKey.err).toBe(
      'punctual: ARGUMENT_INVALID: no API key: pass --key pk_... or set PUNCTUAL_API_KEY\n',
    );
    const badUrl = await run(runsList, { env, url: 'ftp://x' });
    expect(badUrl.code).toBe(2);

    // A port nothing listens on: the listener is closed before the request.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const down = await run(runsList, { env, url: `http://127.0.0.1:${port}`, json: true });
    expect(down.code).toBe(1);
    expect(parse(down.out).error).toEqual({
      code: 'SERVICE_UNREACHABLE',
      message: `cannot reach the service at http://127.0.0.1:${port}: ECONNREFUSED`,
    });
  });
});

describe('schedules occurrences, skip, move, override, unoverride and pause --until', () => {
  it('overrides single occurrences and lists them; bad input is refused with its code', async () => {
    const base = { env, key: 'cli.overrides', tz: 'UTC', webhook: hook };
    // A monthly schedule: its next occurrences are weeks from now (and within the horizon), whatever today is.
    expect((await run(schedulesPut, { ...base, spec: '0 9 1 * *' })).code).toBe(0);
    const list = parse((await run(schedulesOccurrences, { env, key: base.key, count: 4, json: true })).out);
    // Not the first: it may be due within seconds on the first of a month.
    const [, first, second, third] = list.occurrences.map((o: { scheduledFor: string }) => o.scheduledFor);
    const skip = await run(schedulesOverride, {
      env,
      key: base.key,
      instant: first,
      kind: 'skip',
      note: 'no',
    });
    expect(skip.out).toBe(`punctual: cli.overrides at ${first}: skipped (no)\n`);
    const to = new Date(Date.parse(second) + 3_600_000).toISOString();
    const move = await run(schedulesOverride, { env, key: base.key, instant: second, to, kind: 'move' });
    expect(move.out).toBe(`punctual: cli.overrides at ${second}: moved to ${to}\n`);
    const payload = await run(schedulesOverride, {
      env,
      key: base.key,
      instant: third,
      kind: 'payload',
      payload: '{"x":1}',
    });
    expect(payload.code).toBe(0);
    const table = await run(schedulesOccurrences, { env, key: base.key, count: 4 });
    expect(table.out).toMatch(/SCHEDULED FOR\s+RUNS AT\s+OVERRIDE/);
    expect(table.out).toContain(`${first}  -  `);
    expect(table.out).toContain('payload overridden');
    expect((await run(schedulesUnoverride, { env, key: base.key, instant: first })).code).toBe(0);
    const missing = await run(schedulesUnoverride, { env, key: base.key, instant: first });
    expect(missing.err).toContain('OVERRIDE_NOT_FOUND');
    const unknown = await run(schedulesOverride, {
      env,
      key: base.key,
      instant: '2020-06-01T09:30:00Z',
      kind: 'skip',
    });
    expect(unknown.err).toContain('OCCURRENCE_UNKNOWN');
    const past = await run(schedulesPause, { env, key: base.key, until: '2020-01-01T00:00:00Z' });
    expect(past.err).toContain('PAUSE_UNTIL_INVALID');
    const paused = await run(schedulesPause, { env, key: base.key, until: second, json: true });
    expect(parse(paused.out)).toMatchObject({ state: 'paused', pausedUntil: second });
  });
});
