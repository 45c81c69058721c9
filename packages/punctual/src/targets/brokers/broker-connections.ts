// Broker connections as the operator configures them: named, each with a kind, a URL and an optional prefix
// that confines every destination (per tenant when asked). It owns parsing that configuration, the rule a
// destination name must satisfy and the final name a tenant's destination becomes (what the drivers share
// beyond that is in broker-clients.ts). It must never let a tenant name a destination outside its prefix.

import { PunctualError } from '../../errors.js';

export type BrokerKind = 'redis' | 'nats' | 'amqp';
const KINDS: readonly BrokerKind[] = ['redis', 'nats', 'amqp'];

/** One named connection, as an operator writes it. */
export interface BrokerConnectionConfig {
  kind: BrokerKind;
  /**
   * `redis://` or `rediss://`; `nats://` or `tls://` (several servers separated by commas); `amqp://` or
   * `amqps://`. Credentials go in the URL; they never appear in errors.
   */
  url: string;
  /** Put in front of every destination on this connection (`punctual.`). Default none. */
  prefix?: string;
  /** Destinations become `${prefix}${tenantId}.${destination}`: a tenant reaches only its own names. */
  perTenantPrefix?: boolean;
  /**
   * RabbitMQ only: every message goes to this exchange, and the prefix applies to the routing key. Targets
   * on this connection may then not name an exchange.
   */
  exchange?: string;
}

/** Connections by name. */
export type BrokerConnectionsConfig = Record<string, BrokerConnectionConfig>;

/** A parsed, validated connection. */
export interface BrokerConnection {
  readonly name: string;
  readonly kind: BrokerKind;
  readonly url: string;
  readonly prefix: string;
  readonly perTenantPrefix: boolean;
  readonly exchange: string | null;
}

/** The operator's connections, validated once. Drivers of each kind share one instance. */
export class BrokerConnections {
  readonly #byName: ReadonlyMap<string, BrokerConnection>;

  constructor(config: BrokerConnectionsConfig) {
    this.#byName = parseConfig(config);
  }

  get(name: string): BrokerConnection | undefined {
    return this.#byName.get(name);
  }

  /** The names of the connections of a kind (all kinds when omitted). */
  names(kind?: BrokerKind): string[] {
    return [...this.#byName.values()].filter((c) => !kind || c.kind === kind).map((c) => c.name);
  }

  /** The connection a target names; throws BROKER_NOT_CONFIGURED when there is none of that kind. */
  require(kind: BrokerKind, name: string, field: string): BrokerConnection {
    const c = this.#byName.get(name);
    if (c && c.kind === kind) return c;
    const known = this.names(kind);
    throw new PunctualError(
      'BROKER_NOT_CONFIGURED',
      `no ${kind} connection named "${name}" is configured${known.length ? ` (configured: ${known.join(', ')})` : ''}`,
      { field, connection: name },
    );
  }
}

/** Parses and validates operator configuration; errors name the connection. */
export function parseBrokerConnections(config: unknown): BrokerConnections {
  return new BrokerConnections(config as BrokerConnectionsConfig);
}

const CONNECTION_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/;
const SCHEMES: Record<BrokerKind, readonly string[]> = {
  redis: ['redis:', 'rediss:'],
  nats: ['nats:', 'tls:'],
  amqp: ['amqp:', 'amqps:'],
};
const CONFIG_FIELDS = ['kind', 'url', 'prefix', 'perTenantPrefix', 'exchange'];
/** The longest prefix: with a 63-character tenant id and a 128-character destination, names stay under 256. */
export const MAX_PREFIX = 60;
/** The longest destination a target may name (the final name adds the prefix and tenant). */
export const MAX_DESTINATION = 128;
/** The longest final name (AMQP short strings are at most 255 bytes; the rule is the same for all kinds). */
export const MAX_FINAL_NAME = 255;

function configInvalid(connection: string, field: string, why: string): PunctualError {
  return new PunctualError('BROKER_CONFIG_INVALID', `broker connection "${connection}": ${field} ${why}`, {
    connection,
    field,
  });
}

function parseConfig(config: unknown): Map<string, BrokerConnection> {
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new PunctualError(
      'BROKER_CONFIG_INVALID',
      'broker connections must be an object of connection names to { kind, url }',
      { field: 'connections' },
    );
  }
  const out = new Map<string, BrokerConnection>();
  for (const [name, raw] of Object.entries(config)) {
    if (!CONNECTION_NAME.test(name)) {
      throw configInvalid(
        name,
        'name',
        'must be 1-63 letters, digits, _ . - starting with a letter or digit',
      );
    }
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      throw configInvalid(name, 'value', 'must be an object such as { "kind": "redis", "url": "redis://…" }');
    }
    const v = raw as Record<string, unknown>;
    for (const k of Object.keys(v)) {
      if (!CONFIG_FIELDS.includes(k))
        throw configInvalid(name, k, `is not a field (${CONFIG_FIELDS.join(', ')})`);
    }
    const kind = v.kind as BrokerKind;
    if (!KINDS.includes(kind)) throw configInvalid(name, 'kind', `must be one of ${KINDS.join(', ')}`);
    if (typeof v.url !== 'string' || v.url.length === 0 || v.url.length > 4096) {
      throw configInvalid(name, 'url', 'must be a URL of at most 4096 characters');
    }
    const servers = kind === 'nats' ? v.url.split(',').map((s) => s.trim()) : [v.url];
    for (const s of servers) {
      let url: URL;
      try {
        url = new URL(s);
      } catch {
        throw configInvalid(name, 'url', 'must be an absolute URL');
      }
      if (!SCHEMES[kind].includes(url.protocol)) {
        throw configInvalid(name, 'url', `must use ${SCHEMES[kind].map((p) => p.slice(0, -1)).join(' or ')}`);
      }
      if (url.hostname === '') throw configInvalid(name, 'url', 'must name a host');
    }
    let prefix = '';
    if (v.prefix !== undefined) {
      if (typeof v.prefix !== 'string' || v.prefix.length > MAX_PREFIX) {
        throw configInvalid(name, 'prefix', `must be a string of at most ${MAX_PREFIX} characters`);
      }
      // A prefix may end with one separator ("punctual." or "punctual:"), but is otherwise a destination name.
      const core = v.prefix.replace(/[.:_-]$/, '');
      const why =
        v.prefix === ''
          ? undefined
          : core === ''
            ? 'must be a name, optionally ending with a separator (punctual.)'
            : destinationProblem(core);
      if (why) throw configInvalid(name, 'prefix', why);
      prefix = v.prefix;
    }
    if (v.perTenantPrefix !== undefined && typeof v.perTenantPrefix !== 'boolean') {
      throw configInvalid(name, 'perTenantPrefix', 'must be true or false');
    }
    let exchange: string | null = null;
    if (v.exchange !== undefined) {
      if (kind !== 'amqp') throw configInvalid(name, 'exchange', 'applies to amqp connections only');
      const why = typeof v.exchange === 'string' ? destinationProblem(v.exchange) : 'must be a string';
      if (why) throw configInvalid(name, 'exchange', why);
      exchange = v.exchange as string;
    }
    out.set(name, {
      name,
      kind,
      url: v.url,
      prefix,
      perTenantPrefix: v.perTenantPrefix === true,
      exchange,
    });
  }
  return out;
}

const DESTINATION = /^[A-Za-z0-9_:.-]+$/;

/** Why a name is not an allowed destination, or undefined when it is. */
function destinationProblem(name: string, max = MAX_DESTINATION): string | undefined {
  if (name.length === 0) return 'must not be empty';
  if (name.length > max) return `must be at most ${max} characters`;
  // eslint-disable-next-line no-control-regex
  if (/[\s\x00-\x1f\x7f]/.test(name)) return 'must not contain whitespace or control characters';
  if (/[*>#]/.test(name)) return 'must not contain wildcards (*, >, #)';
  if (name.includes('..') || name.startsWith('.') || name.endsWith('.')) {
    return "must not have empty segments ('..', or a leading or trailing '.')";
  }
  if (!DESTINATION.test(name)) return 'may contain only letters, digits and _ - : .';
  return undefined;
}

/** Checks a destination a target names (stream, subject, exchange, routing key); throws BROKER_DESTINATION_INVALID. */
export function checkDestination(name: string, field: string): void {
  const why = destinationProblem(name);
  if (why) throw new PunctualError('BROKER_DESTINATION_INVALID', `${field} ${why}`, { field, value: name });
}

const TENANT_SEGMENT = /^[A-Za-z0-9_-]{1,63}$/;

/**
 * The name a tenant's destination becomes on a connection: `${prefix}${tenantId}.${destination}` with a
 * per-tenant prefix, else `${prefix}${destination}`. The destination is checked first; a tenant id with a
 * separator in it is refused, so no tenant reaches another's names.
 */
export function brokerDestination(
  conn: BrokerConnection,
  tenantId: string,
  destination: string,
  field: string,
): string {
  checkDestination(destination, field);
  let tenant = '';
  if (conn.perTenantPrefix) {
    if (!TENANT_SEGMENT.test(tenantId)) {
      throw new PunctualError(
        'BROKER_DESTINATION_INVALID',
        `tenant id "${tenantId}" cannot be used in a per-tenant prefix (letters, digits, _ and - only)`,
        { field, tenantId },
      );
    }
    tenant = `${tenantId}.`;
  }
  const full = `${conn.prefix}${tenant}${destination}`;
  if (Buffer.byteLength(full) > MAX_FINAL_NAME) {
    throw new PunctualError(
      'BROKER_DESTINATION_INVALID',
      `${field} is too long once prefixed (at most ${MAX_FINAL_NAME} bytes)`,
      { field, value: destination },
    );
  }
  return full;
}
