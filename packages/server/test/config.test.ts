// Configuration: defaults, environment parsing, the optional JSON file under the environment, and refusals
// that name the setting and what it got (never a database password).

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SETTINGS } from '../src/config-settings.js';
import { ConfigError, loadConfig } from '../src/config.js';
import { localUrl } from '../src/local-url.js';

const noFile = (): string => {
  throw new Error('no file expected');
};

function problems(env: Record<string, string>, readFile: (p: string) => string = noFile): string[] {
  try {
    loadConfig(env, readFile);
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('applies the documented defaults to an empty environment', () => {
    const c = loadConfig({}, noFile);
    expect(c).toEqual({
      databaseUrl: null,
      databasePath: './data/punctual.db',
      pgSchema: 'punctual',
      pgScheduleCache: 50_000,
      databaseWaitMs: 300_000,
      host: '127.0.0.1',
      port: 8080,
      publicUrl: null,
      logLevel: 'info',
      logFormat: 'auto',
      bodyLimit: 1024 * 1024,
      allowPrivateTargets: '',
      concurrency: 10,
      claimAheadMs: 2000,
      defaultRateLimit: 50,
      webhookSecretGraceMs: 24 * 3_600_000,
      shutdownGraceMs: 10_000,
      metricsTenantLabels: 20,
      metricsScheduleLabels: '',
      metricsToken: null,
      otel: 'auto',
      alertFailureRate: 'off',
    });
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('reads every setting from the environment', () => {
    const c = loadConfig(
      {
        PUNCTUAL_DATABASE_URL: 'postgres://u:p@db:5432/app',
        PUNCTUAL_DATABASE_PATH: '/var/lib/punctual.db',
        PUNCTUAL_PG_SCHEMA: 'sched',
        PUNCTUAL_PG_SCHEDULE_CACHE: '200000',
        PUNCTUAL_DATABASE_WAIT: '0',
        PUNCTUAL_HOST: '0.0.0.0',
        PUNCTUAL_PORT: '9000',
        PUNCTUAL_PUBLIC_URL: 'https://punctual.example.com/',
        PUNCTUAL_LOG_LEVEL: 'debug',
        PUNCTUAL_LOG_FORMAT: 'json',
        PUNCTUAL_BODY_LIMIT: '256kb',
        PUNCTUAL_ALLOW_PRIVATE_TARGETS: '127.0.0.0/8, ::1/128,10.1.2.3',
        PUNCTUAL_CONCURRENCY: '32',
        PUNCTUAL_CLAIM_AHEAD: '250ms',
        PUNCTUAL_DEFAULT_RATE_LIMIT: '200',
        PUNCTUAL_WEBHOOK_SECRET_GRACE: '2h',
        PUNCTUAL_SHUTDOWN_GRACE: 'PT30S',
        PUNCTUAL_METRICS_TENANT_LABELS: '0',
        PUNCTUAL_METRICS_SCHEDULE_LABELS: 'nightly-report, acme/billing.*',
        PUNCTUAL_METRICS_TOKEN: 'scrape-token-0123456789',
        PUNCTUAL_OTEL: 'on',
        PUNCTUAL_ALERT_FAILURE_RATE: 'on',
      },
      noFile,
    );
    expect(c).toEqual({
      databaseUrl: 'postgres://u:p@db:5432/app',
      databasePath: '/var/lib/punctual.db',
      pgSchema: 'sched',
      pgScheduleCache: 200_000,
      databaseWaitMs: 0,
      host: '0.0.0.0',
      port: 9000,
      publicUrl: 'https://punctual.example.com',
      logLevel: 'debug',
      logFormat: 'json',
      bodyLimit: 256 * 1024,
      allowPrivateTargets: '127.0.0.0/8, ::1/128,10.1.2.3',
      concurrency: 32,
      claimAheadMs: 250,
      defaultRateLimit: 200,
      webhookSecretGraceMs: 7_200_000,
      shutdownGraceMs: 30_000,
      metricsTenantLabels: 0,
      metricsScheduleLabels: 'nightly-report, acme/billing.*',
      metricsToken: 'scrape-token-0123456789',
      otel: 'on',
      alertFailureRate: 'on',
    });
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PUNCTUAL_PORT: '', PUNCTUAL_DATABASE_URL: '' }, noFile)).toMatchObject({
      port: 8080,
      databaseUrl: null,
    });
  });

  it('takes PUNCTUAL_CLAIM_AHEAD=0 as claiming runs once due', () => {
    expect(loadConfig({ PUNCTUAL_CLAIM_AHEAD: '0' }, noFile).claimAheadMs).toBe(0);
  });

  it('names the setting and the value it refuses', () => {
    expect(problems({ PUNCTUAL_PORT: 'abc' })).toEqual([
      'PUNCTUAL_PORT must be an integer between 0 and 65535 (0 picks a free port), got "abc"',
    ]);
  });

  it.each([
    ['PUNCTUAL_PORT', '65536'],
    ['PUNCTUAL_PORT', '80.5'],
    ['PUNCTUAL_PORT', '-1'],
    ['PUNCTUAL_LOG_LEVEL', 'verbose'],
    ['PUNCTUAL_LOG_FORMAT', 'xml'],
    ['PUNCTUAL_BODY_LIMIT', '1gb'],
    ['PUNCTUAL_BODY_LIMIT', '10'],
    ['PUNCTUAL_CONCURRENCY', '0'],
    ['PUNCTUAL_DEFAULT_RATE_LIMIT', 'fast'],
    ['PUNCTUAL_WEBHOOK_SECRET_GRACE', '1 month'],
    ['PUNCTUAL_SHUTDOWN_GRACE', '5'],
    ['PUNCTUAL_ALLOW_PRIVATE_TARGETS', '10.0.0.0/33'],
    ['PUNCTUAL_METRICS_SCHEDULE_LABELS', 'acme/bad key'],
    ['PUNCTUAL_METRICS_SCHEDULE_LABELS', 'a*b'],
    ['PUNCTUAL_ALLOW_PRIVATE_TARGETS', 'localhost'],
    ['PUNCTUAL_PUBLIC_URL', 'punctual.example.com'],
    ['PUNCTUAL_PG_SCHEMA', 'drop table;'],
    ['PUNCTUAL_PG_SCHEMA', 'Punctual'],
    ['PUNCTUAL_DATABASE_WAIT', 'soon'],
    ['PUNCTUAL_CLAIM_AHEAD', '-5ms'],
    ['PUNCTUAL_CLAIM_AHEAD', 'soon'],
    ['PUNCTUAL_HOST', 'a host'],
    ['PUNCTUAL_DATABASE_URL', 'mysql://db/app'],
    ['PUNCTUAL_METRICS_TENANT_LABELS', '5000'],
  ])('refuses %s=%s, naming it', (name, value) => {
    const [p, ...rest] = problems({ [name]: value });
    expect(rest).toEqual([]);
    expect(p).toMatch(new RegExp(`^${name} must be .+, got ".*"$`));
  });

  it('lists every problem at once', () => {
    expect(problems({ PUNCTUAL_PORT: 'x', PUNCTUAL_CONCURRENCY: 'y', PUNCTUAL_LOG_LEVEL: 'z' })).toEqual([
      expect.stringMatching(/^PUNCTUAL_PORT /),
      expect.stringMatching(/^PUNCTUAL_LOG_LEVEL /),
      expect.stringMatching(/^PUNCTUAL_CONCURRENCY /),
    ]);
  });

  it('never repeats a database password', () => {
    const [p] = problems({ PUNCTUAL_DATABASE_URL: 'mysql://admin:hunter2@db/app' });
    expect(p).toContain('PUNCTUAL_DATABASE_URL');
    expect(p).not.toContain('hunter2');
    expect(p).toContain('mysql://***@db/app');
  });
});

describe('the configuration file', () => {
  const file =
    (text: string) =>
    (path: string): string => {
      expect(path).toBe('/etc/punctual.json');
      return text;
    };

  it('fills settings the environment leaves unset; the environment wins', () => {
    const c = loadConfig(
      { PUNCTUAL_CONFIG: '/etc/punctual.json', PUNCTUAL_PORT: '9001' },
      file(JSON.stringify({ port: 7000, concurrency: 4, webhookSecretGraceMs: '1h', logLevel: 'warn' })),
    );
    expect(c).toMatchObject({
      port: 9001,
      concurrency: 4,
      webhookSecretGraceMs: 3_600_000,
      logLevel: 'warn',
    });
  });

  it('names the file key, its variable and the file in a refusal', () => {
    expect(problems({ PUNCTUAL_CONFIG: '/etc/punctual.json' }, file('{"port": "high"}'))).toEqual([
      'port (PUNCTUAL_PORT) in /etc/punctual.json must be an integer between 0 and 65535 (0 picks a free port), got "high"',
    ]);
  });

  it('refuses unknown keys, wrong JSON types, invalid JSON, non-objects and unreadable files', () => {
    expect(problems({ PUNCTUAL_CONFIG: '/etc/punctual.json' }, file('{"prot": 1}'))[0]).toMatch(
      /^"prot" in \/etc\/punctual.json is not a setting \(known: databaseUrl, /,
    );
    expect(problems({ PUNCTUAL_CONFIG: '/etc/punctual.json' }, file('{"port": [1]}'))[0]).toMatch(
      /^port \(PUNCTUAL_PORT\) in \/etc\/punctual.json must be/,
    );
    expect(problems({ PUNCTUAL_CONFIG: '/etc/punctual.json' }, file('{port: 1}'))[0]).toMatch(
      /^PUNCTUAL_CONFIG: \/etc\/punctual.json is not valid JSON/,
    );
    expect(problems({ PUNCTUAL_CONFIG: '/etc/punctual.json' }, file('[]'))[0]).toMatch(
      /must hold a JSON object/,
    );
    expect(
      problems({ PUNCTUAL_CONFIG: '/missing.json' }, () => {
        throw new Error('ENOENT: no such file');
      }),
    ).toEqual(['PUNCTUAL_CONFIG: cannot read /missing.json: ENOENT: no such file']);
  });
});

describe('settings table', () => {
  it('declares each setting once, under PUNCTUAL_', () => {
    expect(new Set(SETTINGS.map((s) => s.env)).size).toBe(SETTINGS.length);
    for (const s of SETTINGS) expect(s.env).toMatch(/^PUNCTUAL_[A-Z_]+$/);
  });

  it('builds browser URLs for any listening address', () => {
    expect(localUrl('127.0.0.1', 8080)).toBe('http://127.0.0.1:8080');
    expect(localUrl('0.0.0.0', 80)).toBe('http://localhost:80');
    expect(localUrl('::1', 8080)).toBe('http://[::1]:8080');
  });
});

describe('docs/operations.md', () => {
  it('documents every setting with its file key and default', () => {
    const doc = readFileSync(new URL('../../../docs/operations.md', import.meta.url), 'utf8');
    for (const s of SETTINGS) {
      const row = doc.split('\n').find((l) => l.startsWith(`| \`${s.env}\` |`));
      expect(row, s.env).toBeDefined();
      expect(row).toContain(`\`${s.key}\``);
      if (s.default !== undefined && s.default !== '') expect(row).toContain(`\`${s.default}\``);
    }
  });
});
