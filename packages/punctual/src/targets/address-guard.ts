// The address guard: decides which IP addresses outbound requests may connect to (no loopback, private,
// link-local, metadata or otherwise special ranges unless an operator's allow list names them). It owns the
// classification, the CIDR allow list and a `dns.lookup`-compatible resolver that checks every address it
// returns. It must never send traffic itself, and it must never hand a connection an address it did not check.

import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { PunctualError } from '../errors.js';

/** One parsed CIDR block. `bytes` holds the network address (host bits cleared). */
export interface Cidr {
  family: 4 | 6;
  bytes: Uint8Array;
  prefix: number;
  /** The entry as written, for messages. */
  text: string;
}

/** Parses an IP literal (IPv6 zone ids and brackets are ignored) into its bytes; undefined when not an IP. */
export function parseIp(text: string): { family: 4 | 6; bytes: Uint8Array } | undefined {
  let ip = text.trim();
  if (ip.startsWith('[') && ip.endsWith(']')) ip = ip.slice(1, -1);
  const zone = ip.indexOf('%');
  if (zone >= 0) ip = ip.slice(0, zone);
  const family = isIP(ip);
  if (family === 4) return { family: 4, bytes: Uint8Array.from(ip.split('.').map(Number)) };
  if (family === 6) return { family: 6, bytes: parseIpv6(ip) };
  return undefined;
}

function parseIpv6(ip: string): Uint8Array {
  // `ip` is known valid (isIP): expand `::`, then read groups; a trailing dotted quad fills the last 4 bytes.
  const out = new Uint8Array(16);
  let tail: number[] = [];
  const lastColon = ip.lastIndexOf(':');
  if (ip.includes('.', lastColon)) {
    tail = ip
      .slice(lastColon + 1)
      .split('.')
      .map(Number);
    ip = `${ip.slice(0, lastColon + 1)}0:0`;
  }
  const [head = '', rest] = ip.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const restGroups = rest === undefined || rest === '' ? [] : rest.split(':');
  const groups =
    rest === undefined
      ? headGroups
      : [
          ...headGroups,
          ...new Array<string>(8 - headGroups.length - restGroups.length).fill('0'),
          ...restGroups,
        ];
  groups.forEach((g, i) => {
    const v = parseInt(g, 16);
    out[i * 2] = v >> 8;
    out[i * 2 + 1] = v & 0xff;
  });
  if (tail.length === 4) out.set(tail, 12);
  return out;
}

function inPrefix(bytes: Uint8Array, net: Uint8Array, prefix: number): boolean {
  for (let bit = 0; bit < prefix; bit += 8) {
    const i = bit / 8;
    const bits = Math.min(8, prefix - bit);
    const mask = (0xff << (8 - bits)) & 0xff;
    if (((bytes[i] ?? 0) & mask) !== ((net[i] ?? 0) & mask)) return false;
  }
  return true;
}

function cidr(text: string): Cidr {
  const slash = text.indexOf('/');
  const ip = parseIp(slash >= 0 ? text.slice(0, slash) : text);
  if (!ip) throw new Error(`"${text}" is not an IP address or CIDR block`);
  const max = ip.family === 4 ? 32 : 128;
  let prefix = max;
  if (slash >= 0) {
    const p = text.slice(slash + 1);
    if (!/^\d{1,3}$/.test(p) || Number(p) > max)
      throw new Error(`"${text}" has a prefix length outside 0–${max}`);
    prefix = Number(p);
  }
  const bytes = ip.bytes.slice();
  for (let bit = prefix; bit < max; bit++) bytes[bit >> 3]! &= ~(0x80 >> (bit & 7)) & 0xff;
  return { family: ip.family, bytes, prefix, text };
}

/**
 * Parses a comma-separated list of CIDR blocks (`127.0.0.0/8,::1/128`; a bare address means a single host).
 * Blank entries are ignored. Throws SCHEDULE_INVALID naming the bad entry.
 */
export function parseCidrList(
  text: string | undefined | null,
  field = 'PUNCTUAL_ALLOW_PRIVATE_TARGETS',
): Cidr[] {
  const out: Cidr[] = [];
  for (const raw of (text ?? '').split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    try {
      out.push(cidr(entry));
    } catch (e) {
      throw new PunctualError('SCHEDULE_INVALID', `${field}: ${(e as Error).message}`, { field, entry });
    }
  }
  return out;
}

/** True when the address lies in one of the blocks (an IPv4-mapped IPv6 address also matches IPv4 blocks). */
export function cidrContains(list: readonly Cidr[], ip: string): boolean {
  const parsed = parseIp(ip);
  if (!parsed) return false;
  const mapped =
    parsed.family === 6 && inPrefix(parsed.bytes, MAPPED.bytes, 96) ? parsed.bytes.slice(12) : undefined;
  return list.some(
    (c) =>
      (c.family === parsed.family && inPrefix(parsed.bytes, c.bytes, c.prefix)) ||
      (mapped !== undefined && c.family === 4 && inPrefix(mapped, c.bytes, c.prefix)),
  );
}

const list = (entries: string): Cidr[] => entries.split(',').map((e) => cidr(e.trim()));

/** IPv4 blocks no outbound request may reach unless allowed. */
const FORBIDDEN_V4 = list(
  [
    '0.0.0.0/8', // "this network", unspecified
    '10.0.0.0/8', // private
    '100.64.0.0/10', // carrier-grade NAT (also cloud metadata at 100.100.100.200)
    '127.0.0.0/8', // loopback
    '169.254.0.0/16', // link-local, cloud metadata at 169.254.169.254
    '172.16.0.0/12', // private
    '192.0.0.0/24', // IETF protocol assignments
    '192.0.2.0/24', // documentation
    '192.168.0.0/16', // private
    '198.18.0.0/15', // benchmarking
    '198.51.100.0/24', // documentation
    '203.0.113.0/24', // documentation
    '224.0.0.0/4', // multicast
    '240.0.0.0/4', // reserved, limited broadcast 255.255.255.255
  ].join(','),
);

const MAPPED = cidr('::ffff:0:0/96');
/** IPv6 blocks that embed an IPv4 address in their last 32 bits: judged by that address. */
const EMBEDS_V4 = list('::ffff:0:0/96,::/96,::ffff:0:0:0/96,64:ff9b::/96');
const SIX_TO_FOUR = cidr('2002::/16');

const FORBIDDEN_V6 = list(
  [
    '::/128', // unspecified
    '::1/128', // loopback
    '64:ff9b:1::/48', // local-use NAT64
    '100::/64', // discard-only
    '2001::/32', // Teredo
    '2001:db8::/32', // documentation
    'fc00::/7', // unique local (cloud metadata at fd00:ec2::254)
    'fe80::/10', // link-local
    'fec0::/10', // site-local (deprecated)
    'ff00::/8', // multicast
  ].join(','),
);

function v4Forbidden(bytes: Uint8Array): boolean {
  return FORBIDDEN_V4.some((c) => inPrefix(bytes, c.bytes, c.prefix));
}

/**
 * True when no outbound request should reach this address by default: loopback, unspecified, private,
 * carrier-grade NAT, link-local and metadata, multicast, broadcast, reserved, documentation and benchmarking
 * ranges, and IPv6 forms that embed such an IPv4 address (mapped, compatible, NAT64, 6to4). Anything that is
 * not an IP address is forbidden too.
 */
export function isForbiddenAddress(ip: string): boolean {
  const parsed = parseIp(ip);
  if (!parsed) return true;
  const { family, bytes } = parsed;
  if (family === 4) return v4Forbidden(bytes);
  if (FORBIDDEN_V6.some((c) => inPrefix(bytes, c.bytes, c.prefix))) return true;
  if (EMBEDS_V4.some((c) => inPrefix(bytes, c.bytes, c.prefix))) return v4Forbidden(bytes.slice(12));
  if (inPrefix(bytes, SIX_TO_FOUR.bytes, 16)) return v4Forbidden(bytes.slice(2, 6));
  return false;
}

export type Resolver = (hostname: string, family: number) => Promise<LookupAddress[]>;

const systemResolver: Resolver = (hostname, family) =>
  new Promise((resolve, reject) => {
    const opts = { all: true as const, family: family === 4 || family === 6 ? family : 0 };
    dnsLookup(hostname, opts, (err, addresses) => (err ? reject(err) : resolve(addresses)));
  });

/**
 * Guards outbound connections. `check` judges one address; `lookup` is handed to `http.request` (or
 * `net.connect`) so the address actually connected to is one that was checked: DNS rebinding between a check
 * and the connection cannot slip past it. A hostname any of whose addresses is refused is refused entirely.
 */
export class AddressGuard {
  readonly #allow: readonly Cidr[];
  readonly #resolve: Resolver;

  constructor(allow: readonly Cidr[] = [], opts: { resolve?: Resolver } = {}) {
    this.#allow = allow;
    this.#resolve = opts.resolve ?? systemResolver;
  }

  /** True when a request may connect to `ip`. */
  allows(ip: string): boolean {
    return cidrContains(this.#allow, ip) || !isForbiddenAddress(ip);
  }

  /** Throws TARGET_ADDRESS_REFUSED unless a request may connect to `ip`. */
  check(ip: string, host?: string): void {
    if (this.allows(ip)) return;
    const shown = host && host !== ip ? `${host} (${ip})` : ip;
    throw new PunctualError(
      'TARGET_ADDRESS_REFUSED',
      `refused to connect to ${shown}: loopback, private, link-local and other special addresses are not allowed ` +
        `(an operator may allow them with PUNCTUAL_ALLOW_PRIVATE_TARGETS)`,
      { address: ip, ...(host && host !== ip ? { host } : {}) },
    );
  }

  /** Checks a URL host that is an IP literal (which skips DNS); does nothing for a hostname. */
  checkLiteral(host: string): void {
    const bare = host.startsWith('[') ? host.slice(1, -1) : host;
    if (isIP(bare)) this.check(bare);
  }

  /** Resolves `hostname`, checks every address, and returns them (all checked). */
  async resolve(hostname: string, family = 0): Promise<LookupAddress[]> {
    const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
    const literal = isIP(bare);
    const addresses = literal ? [{ address: bare, family: literal }] : await this.#resolve(bare, family);
    if (addresses.length === 0) {
      throw Object.assign(new Error(`${hostname} resolved to no address`), { code: 'ENOTFOUND', hostname });
    }
    for (const a of addresses) this.check(a.address, bare);
    return addresses;
  }

  /** A `dns.lookup`-compatible function for the `lookup` option of `http.request` and `net.connect`. */
  readonly lookup: LookupFunction = (hostname: string, options: LookupOptions, callback) => {
    this.resolve(
      hostname,
      options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : (options.family ?? 0),
    ).then(
      (addresses) => {
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, ''),
    );
  };
}
