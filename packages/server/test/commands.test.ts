// Command targets through the assembled service (a real SQLite file, the system clock; runs are awaited
// through scheduler events, never by sleeping): off by default, a command schedule is refused with
// TARGET_DISABLED and nothing is saved; with PUNCTUAL_COMMAND_TARGET=on it is accepted for the tenants in
// PUNCTUAL_COMMAND_TENANTS only, and its run succeeds through the engine with the output on the run (a
// failure shows exit and output in the run's error); the settings are validated at start.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import type { Run } from 'punctual';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { createService, type Service } from '../src/service.js';
import { issueApiKey } from '../src/tenancy/api-keys.js';

let dir: string;
const services: Service[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'punctual-commands-'));
});
afterEach(async () => {
  for (const s of services.splice(0)) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

function config(env: Record<string, string> = {}) {
  return loadConfig({
    PUNCTUAL_DATABASE_PATH: join(dir, `punctual-${services.length}.db`),
    PUNCTUAL_PORT: '0',
    PUNCTUAL_SHUTDOWN_GRACE: '1s',
    PUNCTUAL_SCRIPTS: 'off',
    ...env,
  });
}

async function open(env: Record<string, string> = {}): Promise<Service> {
  const service = await createService(config(env), {
    logger: pino({ level: 'silent' }),
    processMetrics: false,
  });
  services.push(service);
  await service.start();
  return service;
}

function call(
  service: Service,
  method: 'GET' | 'PUT' | 'POST',
  url: string,
  payload?: unknown,
  key?: string,
) {
  return service.app.inject({
    method,
    url,
    payload: payload as object,
    headers: { authorization: `Bearer ${key ?? service.bootstrap!.apiKey}` },
  });
}

function ended(service: Service, scheduleKey: string): Promise<Run> {
  return new Promise((resolve) => {
    const offs = (['run:succeeded', 'run:dead'] as const).map((event) =>
      service.scheduler.on(event, ({ run }) => {
        if (run.scheduleKey !== scheduleKey) return;
        for (const off of offs) off();
        resolve(run);
      }),
    );
  });
}

const greet = {
  spec: '0 0 1 1 *',
  target: { command: { argv: ['/bin/sh', '-c', 'printf "hello %s" "$NAME"'], env: { NAME: 'ops' } } },
  policies: { retry: { maxAttempts: 1 } },
};

async function otherTenantKey(service: Service): Promise<string> {
  await service.tenants.createTenant({
    id: 'acme',
    quotas: { maxSchedules: null, maxRunsPerMinute: null, requestsPerSecond: null },
    webhookSecret: 'whsec_b3RoZXItc2VjcmV0LTAxMjM0NTY3ODk=',
    now: Date.now(),
  });
  return (await issueApiKey(service.tenants, 'acme', { name: 't', now: Date.now() })).key;
}

describe('command schedules through the service', () => {
  it('refuses a command schedule with TARGET_DISABLED while the target is off (the default)', async () => {
    const service = await open();
    expect(service.commandTenants).toBeNull();
    expect(service.targetKinds).not.toContain('command');
    const res = await call(service, 'PUT', '/v1/schedules/greet', greet);
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body).error).toMatchObject({
      code: 'TARGET_DISABLED',
      details: { field: 'target', kind: 'command' },
    });
    expect((await call(service, 'GET', '/v1/schedules/greet')).statusCode).toBe(404);
  });

  it('accepts it for an allowed tenant when on, and its run succeeds with the output kept', async () => {
    const service = await open({ PUNCTUAL_COMMAND_TARGET: 'on', PUNCTUAL_COMMAND_TENANTS: 'default,ops' });
    expect(service.commandTenants).toEqual(['default', 'ops']);
    expect(service.targetKinds).toContain('command');
    const put = await call(service, 'PUT', '/v1/schedules/greet', greet);
    expect(put.statusCode, put.body).toBe(201);
    expect(JSON.parse(put.body).target).toEqual(greet.target);

    const done = ended(service, 'greet');
    expect((await call(service, 'POST', '/v1/schedules/greet/trigger')).statusCode).toBe(201);
    const run = await done;
    expect(run.state).toBe('succeeded');
    const shown = JSON.parse((await call(service, 'GET', `/v1/runs/${run.id}`)).body);
    expect(shown.result).toEqual({ exitCode: 0, signal: null, stdout: 'hello ops', stderr: '' });

    // A tenant not in PUNCTUAL_COMMAND_TENANTS is refused, and nothing is saved for it.
    const acme = await otherTenantKey(service);
    const refused = await call(service, 'PUT', '/v1/schedules/greet', greet, acme);
    expect(refused.statusCode).toBe(400);
    expect(JSON.parse(refused.body).error).toMatchObject({ code: 'TARGET_DISABLED' });
    expect((await call(service, 'GET', '/v1/schedules/greet', undefined, acme)).statusCode).toBe(404);
  });

  it("shows a failed command's exit code and output in the run's error", async () => {
    const service = await open({ PUNCTUAL_COMMAND_TARGET: 'on', PUNCTUAL_COMMAND_TENANTS: '*' });
    const put = await call(service, 'PUT', '/v1/schedules/fails', {
      ...greet,
      target: { command: { argv: ['echo partial; echo broken >&2; exit 3'], shell: true } },
    });
    expect(put.statusCode, put.body).toBe(201);
    const done = ended(service, 'fails');
    await call(service, 'POST', '/v1/schedules/fails/trigger');
    const run = await done;
    const shown = JSON.parse((await call(service, 'GET', `/v1/runs/${run.id}`)).body);
    expect(shown.error).toEqual({
      code: 'COMMAND_FAILED',
      message: '/bin/sh -c exited with code 3',
      details: { exitCode: 3, signal: null, stdout: 'partial\n', stderr: 'broken\n' },
    });
  });

  it('validates the settings: on needs the tenants, which are tenant ids or *', () => {
    expect(() => config({ PUNCTUAL_COMMAND_TARGET: 'on' })).toThrow(/PUNCTUAL_COMMAND_TENANTS/);
    expect(() => config({ PUNCTUAL_COMMAND_TARGET: 'yes' })).toThrow(ConfigError);
    expect(() =>
      config({ PUNCTUAL_COMMAND_TARGET: 'on', PUNCTUAL_COMMAND_TENANTS: 'Default Tenant' }),
    ).toThrow(/PUNCTUAL_COMMAND_TENANTS must be a comma-separated list of tenant ids/);
    expect(
      config({ PUNCTUAL_COMMAND_TARGET: 'on', PUNCTUAL_COMMAND_TENANTS: ' ops , * ' }).commandTenants,
    ).toEqual(['ops', '*']);
  });
});
