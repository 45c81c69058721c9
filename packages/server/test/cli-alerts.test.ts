// The alerting commands called as functions against the assembled service on a real socket (port 0, SQLite in
// a temporary folder): channels put/ls/get/rm, checks put/ls/get/rm, heartbeat, alerts ls/get, --json, and an
// API refusal printed with its code and a non-zero exit code.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  alertsGet,
  alertsList,
  channelsGet,
  channelsList,
  channelsPut,
  channelsRemove,
  checksList,
  checksPut,
  checksRemove,
  heartbeat,
} from '../src/cli/commands/alerts.js';
import type { CliIo } from '../src/cli/io.js';
import { loadConfig } from '../src/config.js';
import { createService, type Service } from '../src/service.js';

let dir: string;
let service: Service;
let env: Record<string, string>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'punctual-cli-alerts-'));
  const config = loadConfig({
    PUNCTUAL_DATABASE_PATH: join(dir, 'punctual.db'),
    PUNCTUAL_PORT: '0',
    PUNCTUAL_SHUTDOWN_GRACE: '1s',
    PUNCTUAL_SCRIPTS: 'off',
  });
  service = await createService(config, { logger: pino({ level: 'silent' }), processMetrics: false });
  const { url } = await service.start();
  env = { PUNCTUAL_URL: url, PUNCTUAL_API_KEY: service.bootstrap!.apiKey };
});

afterAll(async () => {
  await service?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function io(): { io: CliIo; out: () => string } {
  const out: string[] = [];
  return {
    io: { stdout: (t) => void out.push(t), stderr: (t) => void out.push(t), now: () => Date.now() },
    out: () => out.join(''),
  };
}

it('manages channels and checks, records a heartbeat, and lists alerts', async () => {
  let o = io();
  const put = await channelsPut({ env, name: 'ops', kind: 'slack', to: 'https://hooks.example.com/x' }, o.io);
  expect(put, o.out()).toBe(0);
  expect(o.out()).toBe('punctual: created alert channel ops\n');
  o = io();
  expect(await channelsPut({ env, name: 'lo', kind: 'webhook', to: 'http://127.0.0.1:1/x' }, o.io)).not.toBe(
    0,
  );
  expect(o.out()).toContain('TARGET_ADDRESS_REFUSED');
  o = io();
  expect(await channelsList({ env }, o.io)).toBe(0);
  expect(o.out()).toMatch(/ops\s+slack\s+https:\/\/hooks\.example\.com\/x/);
  o = io();
  expect(await channelsGet({ env, name: 'ops' }, o.io)).toBe(0);
  expect(JSON.parse(o.out())).toMatchObject({ name: 'ops', kind: 'slack' });

  o = io();
  expect(await checksPut({ env, name: 'backup', every: '10m' }, o.io)).toBe(0);
  expect(o.out()).toBe('punctual: created check backup\n');
  o = io();
  expect(await heartbeat({ env, name: 'backup' }, o.io)).toBe(0);
  expect(o.out()).toMatch(/^punctual: heartbeat recorded for backup; next check \d{4}-/);
  o = io();
  expect(await heartbeat({ env, name: 'nope' }, o.io)).not.toBe(0);
  expect(o.out()).toContain('CHECK_NOT_FOUND');
  o = io();
  const deadline = { schedule: 'reports.daily', spec: '0 9 * * 1-5', tz: 'Europe/Paris', within: '15m' };
  expect(await checksPut({ env, name: 'by-0915', kind: 'deadline', ...deadline }, o.io)).toBe(0);
  expect(o.out()).toBe('punctual: created check by-0915\n');
  o = io();
  expect(await checksPut({ env, name: 'never', kind: 'deadline', ...deadline, within: '0s' }, o.io)).not.toBe(
    0,
  );
  expect(o.out()).toContain('CHECK_DEADLINE_UNMEETABLE');
  o = io();
  expect(await checksList({ env }, o.io)).toBe(0);
  expect(o.out()).toMatch(
    /by-0915\s+deadline\s+reports\.daily within 900s of 0 9 \* \* 1-5 \(Europe\/Paris\)/,
  );
  o = io();
  expect(await checksList({ env, json: true }, o.io)).toBe(0);
  expect(JSON.parse(o.out()).items.map((c: { name: string }) => c.name)).toEqual(['backup', 'by-0915']);
  expect(await checksRemove({ env, name: 'by-0915' }, io().io)).toBe(0);

  o = io();
  expect(await alertsList({ env, json: true, state: 'open' }, o.io)).toBe(0);
  expect(JSON.parse(o.out())).toEqual({ items: [] });
  o = io();
  expect(await alertsGet({ env, id: '999' }, o.io)).not.toBe(0);
  expect(o.out()).toContain('ALERT_NOT_FOUND');

  expect(await checksRemove({ env, name: 'backup' }, io().io)).toBe(0);
  expect(await channelsRemove({ env, name: 'ops' }, io().io)).toBe(0);
});
