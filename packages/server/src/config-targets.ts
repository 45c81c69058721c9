// The settings of the broker, script and command targets and of the tenant key-value store: PUNCTUAL_BROKERS,
// the sandbox's pool and limits, the per-tenant fetch allow-lists, the command target's switch and tenants,
// and the key-value quotas. Each is absent from a
// Config when unset, so the library's defaults (DEFAULT_SCRIPT_LIMITS) apply; `scriptLimitsOf` gives what the
// operator set. It must never repeat a broker URL in a refusal.

import { DEFAULT_SCRIPT_LIMITS, TENANT_ID_PATTERN, type ScriptLimits } from 'punctual';
import { z } from 'zod';
import type { Config } from './config.js';
import type { Setting } from './config-settings.js';
import { checkBrokers, checkFetchHosts, duration, int, jsonValue, size } from './config-values.js';

export const TARGET_SETTINGS: readonly Setting[] = [
  {
    key: 'brokers',
    env: 'PUNCTUAL_BROKERS',
    default: undefined,
    expect: 'a JSON object of connection names to { kind, url, prefix?, perTenantPrefix?, exchange? }',
    doc: 'Broker connections schedules may name (docs/brokers.md). Unset: no broker target.',
    schema: jsonValue(checkBrokers),
    json: true,
  },
  {
    key: 'scripts',
    env: 'PUNCTUAL_SCRIPTS',
    default: undefined,
    expect: 'one of auto, on, off',
    doc: 'The script target: auto (on when the store keeps a key-value store), on (required), off.',
    schema: z.enum(['auto', 'on', 'off']),
  },
  {
    key: 'scriptPoolSize',
    env: 'PUNCTUAL_SCRIPT_POOL_SIZE',
    default: undefined,
    expect: 'an integer between 1 and 64',
    doc: 'Sandbox threads running scripts, one script at a time each. Default 2.',
    schema: int(1, 64),
  },
  {
    key: 'scriptDefaultTimeoutMs',
    env: 'PUNCTUAL_SCRIPT_DEFAULT_TIMEOUT',
    default: undefined,
    expect: 'a duration from 1ms to 1h such as 1s or 500ms',
    doc: 'Wall time of a script run whose target sets no timeoutMs. Default 1s.',
    schema: duration.pipe(z.number().int().min(1).max(3_600_000)),
  },
  {
    key: 'scriptMaxTimeoutMs',
    env: 'PUNCTUAL_SCRIPT_MAX_TIMEOUT',
    default: undefined,
    expect: 'a duration from 1ms to 1h such as 30s',
    doc: 'Most wall time a script target may ask for (a larger timeoutMs is refused at save time). Default 30s.',
    schema: duration.pipe(z.number().int().min(1).max(3_600_000)),
  },
  {
    key: 'scriptDefaultMemoryMb',
    env: 'PUNCTUAL_SCRIPT_DEFAULT_MEMORY',
    default: undefined,
    expect: 'a whole number of MiB between 1 and 1024',
    doc: 'Memory of a script run whose target sets no memoryMb, in MiB. Default 16.',
    schema: int(1, 1024),
  },
  {
    key: 'scriptMaxMemoryMb',
    env: 'PUNCTUAL_SCRIPT_MAX_MEMORY',
    default: undefined,
    expect: 'a whole number of MiB between 1 and 1024',
    doc: 'Most memory a script target may ask for, in MiB. Default 64.',
    schema: int(1, 1024),
  },
  {
    key: 'scriptFetchHosts',
    env: 'PUNCTUAL_SCRIPT_FETCH_HOSTS',
    default: undefined,
    expect: 'a JSON object of tenant ids (or "*") to lists of host names',
    doc: 'Per-tenant allow-lists of the hosts ctx.fetch may reach. Unset: any public host.',
    schema: jsonValue(checkFetchHosts),
    json: true,
  },
  {
    key: 'commandTarget',
    env: 'PUNCTUAL_COMMAND_TARGET',
    default: undefined,
    expect: 'one of on, off',
    doc: "The command target (docs/commands.md): programs run on the service's machine. Default off; on needs PUNCTUAL_COMMAND_TENANTS.",
    schema: z.enum(['on', 'off']),
  },
  {
    key: 'commandTenants',
    env: 'PUNCTUAL_COMMAND_TENANTS',
    default: undefined,
    expect: 'a comma-separated list of tenant ids (default,ops), or * for every tenant',
    doc: 'The tenants whose schedules may use the command target when it is on. No default.',
    schema: z
      .string()
      .transform((v) =>
        v
          .split(',')
          .map((t) => t.trim())
          .filter((t) => t !== ''),
      )
      .pipe(z.array(z.union([z.literal('*'), z.string().regex(TENANT_ID_PATTERN)])).min(1)),
  },
  {
    key: 'kvMaxKeys',
    env: 'PUNCTUAL_KV_MAX_KEYS',
    default: undefined,
    expect: 'an integer between 1 and 1000000',
    doc: "Keys a tenant's key-value store may hold. Default 1000.",
    schema: int(1, 1_000_000),
  },
  {
    key: 'kvMaxValueBytes',
    env: 'PUNCTUAL_KV_MAX_VALUE',
    default: undefined,
    expect: 'a size from 64 bytes to 16mb (bytes, or with a kb or mb suffix)',
    doc: 'Largest key-value value, as JSON. Default 16kb.',
    schema: size(64, 16 * 1024 * 1024),
  },
];

/**
 * The script limits a configuration asks for, over the library's defaults (only what the operator set).
 * loadConfig has already checked that each default is within its maximum.
 */
export function scriptLimitsOf(config: Readonly<Config>): Partial<ScriptLimits> {
  const out: Partial<ScriptLimits> = {};
  const set = <K extends keyof ScriptLimits>(k: K, v: number | undefined): void => {
    if (v !== undefined) out[k] = v;
  };
  set('defaultTimeoutMs', config.scriptDefaultTimeoutMs);
  set('maxTimeoutMs', config.scriptMaxTimeoutMs);
  set('defaultMemoryMb', config.scriptDefaultMemoryMb);
  set('maxMemoryMb', config.scriptMaxMemoryMb);
  set('kvMaxKeys', config.kvMaxKeys);
  set('kvMaxValueBytes', config.kvMaxValueBytes);
  return out;
}

/** A default above its maximum, once the library's defaults fill what is unset. */
export function limitProblems(config: Readonly<Config>): string[] {
  const l = { ...DEFAULT_SCRIPT_LIMITS, ...scriptLimitsOf(config) };
  const out: string[] = [];
  if (config.commandTarget === 'on' && config.commandTenants === undefined) {
    out.push(
      'PUNCTUAL_COMMAND_TARGET=on needs PUNCTUAL_COMMAND_TENANTS: the tenants allowed to run commands (or *)',
    );
  }
  if (l.defaultTimeoutMs > l.maxTimeoutMs) {
    out.push(
      `PUNCTUAL_SCRIPT_DEFAULT_TIMEOUT (${l.defaultTimeoutMs} ms) must not exceed PUNCTUAL_SCRIPT_MAX_TIMEOUT (${l.maxTimeoutMs} ms)`,
    );
  }
  if (l.defaultMemoryMb > l.maxMemoryMb) {
    out.push(
      `PUNCTUAL_SCRIPT_DEFAULT_MEMORY (${l.defaultMemoryMb} MiB) must not exceed PUNCTUAL_SCRIPT_MAX_MEMORY (${l.maxMemoryMb} MiB)`,
    );
  }
  return out;
}
