// The address guard: decides which IP addresses outbound requests may connect to (no loopback, private,
// link-local, metadata or otherwise special ranges unless an operator's allow list names them). It owns the
// range tables (matched with Node's `net.BlockList`, which parses the addresses), the CIDR allow list and a
// `dns.lookup`-compatible resolver that checks every address it returns. It must never send traffic itself,
// and it must never hand a connection an address it did not check.

import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { PunctualError } from '../errors.js';

/** One CIDR block of an allow list. */
export interface Cidr {
  family: 4 | 6;
  /** The network address as written (brackets and zone id removed). */
  address: string;
  prefix: number;
  /** The entry as written, for messages. */
  text: string;
}

/** An IP literal with IPv6 brackets and zone id removed, and its family; undefined when not an IP. */
export function parseIp(text: string): { family: 4 | 6; address: string } | undefined {
  let ip = text.trim();
  if (ip.startsWith('[') && ip.endsWith(']')) ip = ip.slice(1, -1);
  const zone = ip.indexOf('%');
  if (zone >= 0) ip = ip.slice(0, zone);
  const family = isIP(ip);
  return family === 4 || family === 6 ? { family, address: ip } : undefined;
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
  return { ...ip, prefix, text };
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

/** The blocks as one `net.BlockList` (which also matches IPv4-mapped IPv6 addresses against IPv4 blocks). */
function blockList(blocks: readonly Cidr[]): BlockList {
  const out = new BlockList();
  for (const b of blocks) out.addSubnet(b.address, b.prefix, b.family === 4 ? 'ipv4' : 'ipv6');
  return out;
}

/** True when the address lies in the list (`ip` may carry brackets or an IPv6 zone id). */
function listed(list: BlockList, text: string): boolean {
  const ip = parseIp(text);
  return ip !== undefined && list.check(ip.address, ip.family === 4 ? 'ipv4' : 'ipv6');
}

const list = (entries: readonly string[]): Cidr[] => entries.map((e) => cidr(e));

/** IPv4 blocks no outbound request may reach unless allowed. */
const FORBIDDEN_V4 = list([
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
]);

/** IPv6 prefixes (/96) that embed an IPv4 address in their last 32 bits: judged by that address. */
const EMBEDS_V4 = ['::ffff:', '::', '::ffff:0:', '64:ff9b::'];
/** 6to4 (2002::/16) embeds an IPv4 address in bits 16–47. */
const SIX_TO_FOUR = '2002:';

const FORBIDDEN_V6 = list([
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
]);

/** An IPv4 block of the table above as two 16-bit hex groups (its own constant text, never input). */
function hexGroups(v4: Cidr): [string, string] {
  const [a = 0, b = 0, c = 0, d = 0] = v4.address.split('.').map(Number);
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
}

/**
 * Every forbidden range as one BlockList: the IPv4 and IPv6 tables, plus each IPv4 block as it appears
 * inside the IPv6 forms that embed an IPv4 address (mapped, compatible, NAT64, 6to4).
 */
const FORBIDDEN = blockList([
  ...FORBIDDEN_V4,
  ...FORBIDDEN_V6,
  ...FORBIDDEN_V4.flatMap((v4) => {
    const [hi, lo] = hexGroups(v4);
    const embedded = EMBEDS_V4.map((p) => cidr(`${p}${hi}:${lo}/${96 + v4.prefix}`));
    return [...embedded, cidr(`${SIX_TO_FOUR}${hi}:${lo}::/${16 + v4.prefix}`)];
  }),
]);

/**
 * True when no outbound request should reach this address by default: loopback, unspecified, private,
 * carrier-grade NAT, link-local and metadata, multicast, broadcast, reserved, documentation and benchmarking
 * ranges, and IPv6 forms that embed such an IPv4 address (mapped, compatible, NAT64, 6to4). Anything that is
 * not an IP address is forbidden too.
 */
export function isForbiddenAddress(ip: string): boolean {
  return parseIp(ip) === undefined || listed(FORBIDDEN, ip);
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
  readonly #allow: BlockList;
  readonly #resolve: Resolver;

  constructor(allow: readonly Cidr[] = [], opts: { resolve?: Resolver } = {}) {
    this.#allow = blockList(allow);
    this.#resolve = opts.resolve ?? systemResolver;
  }

  /** True when a request may connect to `ip`. */
  allows(ip: string): boolean {
    return listed(this.#allow, ip) || !isForbiddenAddress(ip);
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
