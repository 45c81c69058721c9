// The address guard: which addresses outbound requests may reach, the CIDR allow list, and the lookup hook
// that checks every resolved address. Classification only: no traffic leaves 127.0.0.0/8 or ::1.

import { describe, expect, it } from 'vitest';
import { isPunctualError } from '../../src/errors.js';
import { AddressGuard, isForbiddenAddress, parseCidrList, parseIp } from '../../src/targets/address-guard.js';
import type { LookupAddress } from 'node:dns';

const FORBIDDEN: [string, string][] = [
  ['127.0.0.1', 'IPv4 loopback'],
  ['127.255.255.254', 'IPv4 loopback, end of block'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'this network'],
  ['10.0.0.1', 'private 10/8'],
  ['172.16.0.1', 'private 172.16/12'],
  ['172.31.255.255', 'private 172.16/12, end'],
  ['192.168.1.1', 'private 192.168/16'],
  ['169.254.0.1', 'link-local'],
  ['169.254.169.254', 'cloud metadata'],
  ['100.64.0.1', 'carrier-grade NAT'],
  ['100.100.100.200', 'metadata inside CGNAT'],
  ['192.0.0.192', 'IETF protocol assignments'],
  ['198.18.0.1', 'benchmarking'],
  ['198.19.255.255', 'benchmarking, end'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast SSDP'],
  ['255.255.255.255', 'broadcast'],
  ['240.0.0.1', 'reserved'],
  ['192.0.2.10', 'documentation'],
  ['::1', 'IPv6 loopback'],
  ['0:0:0:0:0:0:0:1', 'IPv6 loopback, long form'],
  ['::', 'IPv6 unspecified'],
  ['fe80::1', 'IPv6 link-local'],
  ['fe80::1%eth0', 'IPv6 link-local with zone'],
  ['febf::1', 'IPv6 link-local, end of block'],
  ['fc00::1', 'unique local'],
  ['fd12:3456::1', 'unique local fd'],
  ['fd00:ec2::254', 'cloud metadata IPv6'],
  ['ff02::1', 'IPv6 multicast'],
  ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
  ['::ffff:7f00:1', 'IPv4-mapped loopback, hex'],
  ['::ffff:169.254.169.254', 'IPv4-mapped metadata'],
  ['::ffff:10.1.2.3', 'IPv4-mapped private'],
  ['::127.0.0.1', 'IPv4-compatible loopback'],
  ['64:ff9b::10.0.0.1', 'NAT64 of a private address'],
  ['64:ff9b::a9fe:a9fe', 'NAT64 of metadata'],
  ['2002:7f00:1::1', '6to4 of loopback'],
  ['2001:db8::1', 'IPv6 documentation'],
  ['not-an-ip', 'not an address'],
];

const ALLOWED: [string, string][] = [
  ['93.184.216.34', 'public IPv4'],
  ['8.8.8.8', 'public IPv4'],
  ['1.1.1.1', 'public IPv4'],
  ['172.32.0.1', 'just past 172.16/12'],
  ['100.128.0.1', 'just past CGNAT'],
  ['169.253.255.255', 'just before link-local'],
  ['198.20.0.1', 'just past benchmarking'],
  ['11.0.0.1', 'just past 10/8'],
  ['2606:2800:220:1::1', 'public IPv6'],
  ['2a00:1450:4001:81b::200e', 'public IPv6'],
  ['::ffff:93.184.216.34', 'IPv4-mapped public'],
  ['64:ff9b::5db8:d822', 'NAT64 of a public address'],
  ['2002:5db8:d822::1', '6to4 of a public address'],
];

describe('isForbiddenAddress', () => {
  it.each(FORBIDDEN)('refuses %s (%s)', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(true);
  });
  it.each(ALLOWED)('allows %s (%s)', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(false);
  });
});

describe('parseIp', () => {
  it('strips brackets and zone ids, and refuses what is not an address', () => {
    expect(parseIp('[2001:db8::1]')).toEqual({ family: 6, address: '2001:db8::1' });
    expect(parseIp('fe80::1%eth0')).toEqual({ family: 6, address: 'fe80::1' });
    expect(parseIp(' 10.0.0.1 ')).toEqual({ family: 4, address: '10.0.0.1' });
    expect(parseIp('1.2.3')).toBeUndefined();
  });

  it('judges every spelling of one IPv6 address alike', () => {
    const guard = new AddressGuard(parseCidrList('::ffff:127.0.0.1/128'));
    for (const ip of ['::ffff:127.0.0.1', '0:0:0:0:0:ffff:7f00:0001', '::ffff:7f00:1', '127.0.0.1']) {
      expect(guard.allows(ip), ip).toBe(true);
    }
    expect(guard.allows('::ffff:127.0.0.2')).toBe(false);
  });
});

describe('parseCidrList', () => {
  it('parses IPv4 and IPv6 blocks and bare addresses, ignoring blanks', () => {
    const list = parseCidrList(' 127.0.0.0/8, ::1/128 ,,10.1.2.3 ');
    expect(list.map((c) => [c.family, c.prefix])).toEqual([
      [4, 8],
      [6, 128],
      [4, 32],
    ]);
    expect(parseCidrList('')).toEqual([]);
    expect(parseCidrList(undefined)).toEqual([]);
  });

  it.each(['127.0.0.0/33', '::1/129', 'localhost', '10.0.0.0/x', '300.1.1.1/8'])(
    'names the bad entry %s',
    (bad) => {
      try {
        parseCidrList(`127.0.0.0/8,${bad}`);
        expect.unreachable();
      } catch (e) {
        expect(isPunctualError(e, 'SCHEDULE_INVALID')).toBe(true);
        expect((e as Error).message).toContain(bad);
        expect((e as { details: Record<string, unknown> }).details.entry).toBe(bad);
      }
    },
  );
});

describe('AddressGuard', () => {
  it('refuses special addresses with TARGET_ADDRESS_REFUSED unless the allow list names them', () => {
    const strict = new AddressGuard([]);
    expect(() => strict.check('127.0.0.1')).toThrow(
      expect.objectContaining({ code: 'TARGET_ADDRESS_REFUSED' }),
    );
    expect(() => strict.check('93.184.216.34')).not.toThrow();

    const loopback = new AddressGuard(parseCidrList('127.0.0.0/8,::1/128'));
    expect(() => loopback.check('127.0.0.1')).not.toThrow();
    expect(() => loopback.check('127.9.9.9')).not.toThrow();
    expect(() => loopback.check('::1')).not.toThrow();
    expect(() => loopback.check('::ffff:127.0.0.1')).not.toThrow(); // mapped: judged as its IPv4
    expect(() => loopback.check('10.0.0.1')).toThrow(
      expect.objectContaining({ code: 'TARGET_ADDRESS_REFUSED' }),
    );
    expect(() => loopback.check('169.254.169.254')).toThrow();
    expect(() => loopback.check('64:ff9b::7f00:1')).toThrow(); // NAT64 is not the loopback block
  });

  it('checks IP literals (with or without brackets) and leaves hostnames to lookup', () => {
    const g = new AddressGuard([]);
    expect(() => g.checkLiteral('127.0.0.1')).toThrow();
    expect(() => g.checkLiteral('[::1]')).toThrow();
    expect(() => g.checkLiteral('example.com')).not.toThrow();
  });

  it('checks every resolved address: one forbidden address refuses the hostname', async () => {
    const answers: Record<string, LookupAddress[]> = {
      'public.test': [{ address: '93.184.216.34', family: 4 }],
      'mixed.test': [
        { address: '93.184.216.34', family: 4 },
        { address: '10.0.0.5', family: 4 },
      ],
      'rebind.test': [{ address: '169.254.169.254', family: 4 }],
    };
    const g = new AddressGuard([], { resolve: async (host) => answers[host] ?? [] });
    await expect(g.resolve('public.test')).resolves.toEqual(answers['public.test']);
    await expect(g.resolve('mixed.test')).rejects.toMatchObject({ code: 'TARGET_ADDRESS_REFUSED' });
    await expect(g.resolve('rebind.test')).rejects.toMatchObject({
      code: 'TARGET_ADDRESS_REFUSED',
      details: { address: '169.254.169.254', host: 'rebind.test' },
    });
    await expect(g.resolve('nothing.test')).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });

  it('lookup follows the dns.lookup callback contract, single and all', async () => {
    const g = new AddressGuard(parseCidrList('127.0.0.0/8,::1/128'), {
      resolve: async () => [
        { address: '127.0.0.1', family: 4 },
        { address: '::1', family: 6 },
      ],
    });
    const single = await new Promise<unknown[]>((resolve) =>
      g.lookup('svc.test', {}, (err, address, family) => resolve([err, address, family])),
    );
    expect(single).toEqual([null, '127.0.0.1', 4]);
    const all = await new Promise<unknown[]>((resolve) =>
      g.lookup('svc.test', { all: true }, (err, address) => resolve([err, address])),
    );
    expect(all).toEqual([
      null,
      [
        { address: '127.0.0.1', family: 4 },
        { address: '::1', family: 6 },
      ],
    ]);
  });

  it('resolves localhost through the system resolver and refuses it', async () => {
    await expect(new AddressGuard([]).resolve('localhost')).rejects.toMatchObject({
      code: 'TARGET_ADDRESS_REFUSED',
    });
  });
});
