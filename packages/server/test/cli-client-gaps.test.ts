// The client commands a new user found missing, called as functions against the assembled service on a
// real socket (port 0, SQLite in a temporary folder): schedules backfill, runs cancel, `schedules put
// --script FILE`, the refusal of handler targets (a `punctual serve` process has none), `kv ls|get|put|rm`,
// `tenant get|rotate-secret`, `schedules ls` keeping one line per schedule for a multi-line RRULE, and
// `runs get` printing a failed script's logs and stack. Runs are awaited through scheduler events.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import type { Run } from 'punctual';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kvGet, kvList, kvPut, kvRemove } from '../src/cli/commands/kv.js';
import { runsCancel, runsGet, runsRerun } from '../src/cli/commands/runs.js';
import { schedulesRerun } from '../src/cli/commands/schedules-rerun.js';
import { NO_HANDLERS } from '../src/cli/schedule-put-body.js';
import {
  schedulesBackfill,
  schedulesGet,
  schedulesList,
  schedulesPut,
  schedulesTrigger,
} from '../src/cli/commands/schedules.js';
import { tenantGet, tenantRotateSecret } from '../src/cli/commands/tenant.js';
import type { CliIo } from '../src/cli/io.js';
import { loadConfig } from '../src/config.js';
import { createService, type Service } from '../src/service.js';

let dir: string;
let service: Service;
let receiver: Server;
/** Requests to /hang are held here, unanswered, until the end. */
const held: ServerResponse[] = [];
let hook: string;
let env: Record<string, string>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'punctual-cli-gaps-'));
  receiver = createServer((req, res) => {
    req.resume();
    if (req.url === '/hang') held.push(res);
    else req.on('end', () => res.writeHead(200).end('{"ok":true}'));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const config = loadConfig({
    PUNCTUAL_DATABASE_PATH: join(dir, 'punctual.db'),
    PUNCTUAL_PORT: '0',
    PUNCTUAL_ALLOW_PRIVATE_TARGETS: '127.0.0.1/32',
    PUNCTUAL_SHUTDOWN_GRACE: '1s',
    PUNCTUAL_DEFAULT_RATE_LIMIT: '10000',
    PUNCTUAL_SCRIPT_POOL_SIZE: '1',
  });
  service = await createService(config, { logger: pino({ level: 'silent' }), processMetrics: false });
  const { url } = await service.start();
  env = { PUNCTUAL_URL: url, PUNCTUAL_API_KEY: service.bootstrap!.apiKey };
});

afterAll(async () => {
  for (const res of held.splice(0)) res.destroy();
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

/** Resolves with the run when `event` fires for a run of the schedule. */
function next(event: 'run:started' | 'run:succeeded' | 'run:dead', scheduleKey: string): Promise<Run> {
  return new Promise((resolve) => {
    const off = service.scheduler.on(event, ({ run: r }) => {
      if (r.scheduleKey !== scheduleKey) return;
      off();
      resolve(r);
    });
  });
}

const HOUR = 3_600_000;

describe('schedules backfill', () => {
  it('creates one run per past occurrence in [from, to) and prints them; --json prints the API answer', async () => {
    await run(schedulesPut, { env, key: 'hourly', spec: '0 * * * *', webhook: `${hook}/ok` });
    // Two whole hours that ended at least an hour ago: two occurrences whatever the time of day.
    const to = Math.floor(Date.now() / HOUR) * HOUR - HOUR;
    const from = to - 2 * HOUR;
    const iso = (ms: number) => new Date(ms).toISOString();
    const r = await run(schedulesBackfill, { env, key: 'hourly', from: iso(from), to: iso(to) });
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain(`punctual: backfilled schedule hourly over [${iso(from)}, ${iso(to)}): 2 runs\n`);
    expect(r.out).toMatch(/\nID\s+SCHEDULED FOR\s+STATE\n/);
    expect(r.out).toContain(iso(from));
    expect(r.out).toContain(iso(from + HOUR));

    // The same range again: the occurrences have their runs already.
    const again = await run(schedulesBackfill, {
      env,
      key: 'hourly',
      from: iso(from),
      to: iso(to),
      json: true,
    });
    expect(parse(again.out)).toEqual({ runs: [] });

    const future = await run(schedulesBackfill, {
      env,
      key: 'hourly',
      from: iso(from),
      to: iso(Date.now() + 10 * HOUR),
    });
    expect(future.code).toBe(1);
    expect(future.err).toMatch(/^punctual: SCHEDULE_INVALID: backfill cannot reach into the future/);
    const missing = await run(schedulesBackfill, { env, key: 'hourly', from: iso(from) });
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('--from and --to are required');
  });
});

describe('runs cancel', () => {
  it('cancels a running run; a finished one is refused with 409 RUN_NOT_CANCELLABLE', async () => {
    await run(schedulesPut, {
      env,
      key: 'hangs',
      spec: '0 0 1 1 *',
      webhook: `${hook}/hang`,
    });
    const started = next('run:started', 'hangs');
    const trig = parse((await run(schedulesTrigger, { env, key: 'hangs', json: true })).out);
    await started;
    const cancelled = await run(runsCancel, { env, id: trig.id as string });
    expect(cancelled.err).toBe('');
    expect(cancelled.out).toMatch(
      new RegExp(`^punctual: cancelled run ${trig.id} of hangs \\(scheduled for `),
    );
    const shown = parse((await run(runsGet, { env, id: trig.id as string, json: true })).out);
    expect(shown).toMatchObject({ state: 'cancelled', reason: 'manual' });

    const again = await run(runsCancel, { env, id: trig.id as string, json: true });
    expect(again.code).toBe(1);
    expect(parse(again.out).error).toMatchObject({ code: 'RUN_NOT_CANCELLABLE' });
    const none = await run(runsCancel, { env, id: 'no-such-run' });
    expect(none.err).toMatch(/^punctual: RUN_NOT_FOUND: /);
  });
});

describe('schedules put --script and handler targets', () => {
  it("saves a file's text as a script's source, keeping the script settings of --file", async () => {
    const script = join(dir, 'job.js');
    writeFileSync(script, 'export default (ctx) => ({ doubled: ctx.payload.n * 2 });\n');
    const body = join(dir, 'job.json');
    writeFileSync(
      body,
      JSON.stringify({ spec: '0 0 1 1 *', target: { script: { source: 'x', timeoutMs: 1500 } } }),
    );
    const saved = await run(schedulesPut, {
      env,
      key: 'job',
      file: body,
      script,
      payload: '{"n":21}',
      json: true,
    });
    expect(saved.err).toBe('');
    expect(parse(saved.out).target).toEqual({
      script: { source: 'export default (ctx) => ({ doubled: ctx.payload.n * 2 });\n', timeoutMs: 1500 },
    });
    const done = next('run:succeeded', 'job');
    await run(schedulesTrigger, { env, key: 'job' });
    expect((await done).result).toEqual({ value: { doubled: 42 }, logs: [] });

    const unreadable = await run(schedulesPut, {
      env,
      key: 'job',
      spec: '@every 1h',
      script: join(dir, 'nope.js'),
    });
    expect(unreadable.code).toBe(2);
    expect(unreadable.err).toContain(`--script: cannot read ${join(dir, 'nope.js')}`);
  });

  it('refuses a handler target with an explanation, before any request', async () => {
    const body = join(dir, 'handler.json');
    writeFileSync(body, JSON.stringify({ spec: '@every 1h', target: { handler: 'send-report' } }));
    const r = await run(schedulesPut, { env, key: 'handled', file: body, json: true });
    expect(r.code).toBe(2);
    expect(parse(r.out)).toEqual({ error: { code: 'ARGUMENT_INVALID', message: NO_HANDLERS } });
    expect(NO_HANDLERS).toMatch(/no in-process handlers/);
    const option = await run(schedulesPut, {
      env,
      key: 'handled',
      spec: '@every 1h',
      handler: 'send-report',
    });
    expect(option.code).toBe(2);
    expect(option.err).toBe(`punctual: ARGUMENT_INVALID: ${NO_HANDLERS}\n`);
    expect((await run(schedulesGet, { env, key: 'handled' })).code).toBe(1);
  });
});

describe('schedules ls', () => {
  it('keeps one line per schedule for a multi-line RRULE spec', async () => {
    const spec = 'DTSTART;TZID=Europe/Paris:20260105T090000\nRRULE:FREQ=WEEKLY;BYDAY=MO';
    const saved = await run(schedulesPut, { env, key: 'rrule.weekly', spec, webhook: `${hook}/ok` });
    expect(saved.err).toBe('');
    const ls = await run(schedulesList, { env, prefix: 'rrule.' });
    const lines = ls.out.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(
      /^rrule\.weekly\s+active\s+DTSTART;TZID=Europe\/Paris:20260105T090000 RRULE:FREQ=WEEKLY;BYDAY=MO\s/,
    );
    const get = await run(schedulesGet, { env, key: 'rrule.weekly' });
    expect(get.out).toMatch(
      /\nspec {8}DTSTART;TZID=Europe\/Paris:20260105T090000 RRULE:FREQ=WEEKLY;BYDAY=MO {2}\(/,
    );
  });
});

describe('kv', () => {
  it('puts, gets, lists and removes keys; --json prints the entries', async () => {
    const created = await run(kvPut, { env, key: 'orders/count', value: '41' });
    expect(created.out).toBe('punctual: created key orders/count\n');
    const file = join(dir, 'value.json');
    writeFileSync(file, '{"last": "order-42", "n": 42}');
    expect((await run(kvPut, { env, key: 'orders/last', file })).out).toBe(
      'punctual: created key orders/last\n',
    );
    expect((await run(kvPut, { env, key: 'orders/count', value: '42' })).out).toBe(
      'punctual: replaced key orders/count\n',
    );

    const got = await run(kvGet, { env, key: 'orders/last' });
    expect(JSON.parse(got.out)).toEqual({ last: 'order-42', n: 42 });
    expect(parse((await run(kvGet, { env, key: 'orders/count', json: true })).out)).toMatchObject({
      key: 'orders/count',
      value: 42,
    });

    const ls = await run(kvList, { env, prefix: 'orders/' });
    expect(ls.out).toMatch(
      /^KEY\s+UPDATED\s+VALUE\norders\/count\s+\S+\s+42\norders\/last\s+\S+\s+\{"last":"order-42","n":42\}\n$/,
    );

    expect((await run(kvRemove, { env, key: 'orders/count' })).out).toBe(
      'punctual: deleted key orders/count\n',
    );
    const gone = await run(kvGet, { env, key: 'orders/count' });
    expect(gone.code).toBe(1);
    expect(gone.err).toMatch(/^punctual: NOT_FOUND: /);
    expect(parse((await run(kvList, { env, prefix: 'orders/', json: true })).out).items).toHaveLength(1);
  });

  it('refuses a value that is not JSON, or given twice, before any request', async () => {
    const bad = await run(kvPut, { env, key: 'k', value: 'not json' });
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('the value must be JSON');
    const twice = await run(kvPut, { env, key: 'k', value: '1', file: join(dir, 'value.json') });
    expect(twice.err).toContain('give the value once');
    expect((await run(kvGet, { env, key: 'k' })).code).toBe(1);
  });
});

describe('tenant', () => {
  it('shows the tenant and rotates its webhook secret, keeping the previous one for the grace period', async () => {
    const before = parse((await run(tenantGet, { env, json: true })).out);
    expect(before).toMatchObject({ name: 'default', previousSecretExpiresAt: null });
    const shown = await run(tenantGet, { env });
    expect(shown.out).toContain(`secret    ${before.webhookSecret as string}\n`);

    const rotated = await run(tenantRotateSecret, { env });
    expect(rotated.err).toBe('');
    const after = parse((await run(tenantGet, { env, json: true })).out);
    expect(after.webhookSecret).not.toBe(before.webhookSecret);
    expect(after.previousSecretExpiresAt).toEqual(expect.any(String));
    expect(rotated.out).toBe(
      `punctual: rotated the webhook secret of default: ${after.webhookSecret as string}\n` +
        `  requests carry signatures with both secrets until ${after.previousSecretExpiresAt as string}; ` +
        'update your receivers before then\n',
    );
  });
});

describe('runs get', () => {
  it("prints a failed script's error with its stack and logs, on the run and its attempt", async () => {
    const script = join(dir, 'fails.js');
    writeFileSync(
      script,
      "export default () => {\n  console.log('looking for order 42');\n  throw new Error('out of stock');\n};\n",
    );
    const body = join(dir, 'fails.json');
    writeFileSync(body, JSON.stringify({ spec: '0 0 1 1 *', policies: { retry: { maxAttempts: 1 } } }));
    expect((await run(schedulesPut, { env, key: 'fails', file: body, script })).err).toBe('');
    const dead = next('run:dead', 'fails');
    await run(schedulesTrigger, { env, key: 'fails' });
    const { id } = await dead;
    const shown = await run(runsGet, { env, id });
    expect(shown.out).toMatch(/\nerror {8}SCRIPT_FAILED: .*out of stock\n {13}stack\n {15}.*\n/);
    expect(shown.out).toContain('\n             logs\n               looking for order 42\n');
    expect(shown.out).toMatch(/\nattempts\n {2}#1 \S+ → \S+ failed {2}SCRIPT_FAILED .*\n {6}stack\n/);
    expect(shown.out).toContain('\n      logs\n        looking for order 42\n');
  });
});

describe('runs rerun and schedules rerun', () => {
  it('runs a dead run again with the fixed target, then reruns a range by state', async () => {
    const body = (url: string) => {
      const file = join(dir, `rerun-${url.length}.json`);
      writeFileSync(
        file,
        JSON.stringify({
          spec: '0 0 1 1 *',
          target: { webhook: { url } },
          policies: { retry: { maxAttempts: 1 } },
        }),
      );
      return file;
    };
    // Nothing listens on port 1: the delivery fails and, with one attempt, the run is dead.
    expect((await run(schedulesPut, { env, key: 'rerun', file: body('http://127.0.0.1:1/x') })).err).toBe('');
    const dead = next('run:dead', 'rerun');
    await run(schedulesTrigger, { env, key: 'rerun' });
    const died = await dead;
    expect((await run(schedulesPut, { env, key: 'rerun', file: body(`${hook}/ok`) })).err).toBe('');

    const done = next('run:succeeded', 'rerun');
    const again = await run(runsRerun, { env, id: died.id });
    expect(again).toMatchObject({ code: 0, err: '' });
    expect(again.out).toBe(
      `punctual: run ${died.id} of rerun (scheduled for ${new Date(died.scheduledFor).toISOString()}) is scheduled again\n`,
    );
    expect((await done).id).toBe(died.id);

    const from = new Date(died.scheduledFor).toISOString();
    const to = new Date(died.scheduledFor + 1).toISOString();
    const none = await run(schedulesRerun, { env, key: 'rerun', from, to });
    expect(none.out).toContain('(dead): no run scheduled again');
    const succeededAgain = next('run:succeeded', 'rerun');
    const bulk = await run(schedulesRerun, { env, key: 'rerun', from, to, state: ['succeeded'], json: true });
    expect(parse(bulk.out)).toMatchObject({ runs: [{ id: died.id, state: 'scheduled' }], refused: [] });
    await succeededAgain;
    const bad = await run(schedulesRerun, { env, key: 'rerun', from, to, state: ['running'] });
    expect(bad.code).not.toBe(0);
    expect(bad.err).toContain('--state must be a final state');
  });
});
