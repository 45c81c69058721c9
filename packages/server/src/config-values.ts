// The value types settings are written in, as zod schemas: integers, durations, sizes, CIDR lists, and JSON
// settings (broker connections, per-tenant fetch allow-lists) parsed from text or taken from the file as
// objects. Pure validation for config.ts: it must never read the environment, and a refusal of a JSON value
// must never repeat the value (a broker URL may carry a password).

import { isIP } from 'node:net';
import { parseBrokerConnections, parseDuration, type BrokerConnectionsConfig } from 'punctual';
import { z } from 'zod';

export const int = (min: number, max: number): z.ZodType =>
  z
    .union([
      z.number(),
      z
        .string()
        .trim()
        .regex(/^-?\d+$/)
        .transform(Number),
    ])
    .pipe(z.number().int().min(min).max(max));

export const duration = z.union([z.number().int().min(0), z.string()]).transform((v, ctx) => {
  if (typeof v === 'number') return v;
  try {
    return parseDuration(v.trim());
  } catch {
    ctx.addIssue({ code: 'custom', message: 'not a duration' });
    return z.NEVER;
  }
});

const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, kb: 1024, mb: 1024 * 1024 };
export const size = (min: number, max: number): z.ZodType =>
  z
    .union([z.number(), z.string()])
    .transform((v, ctx) => {
      const m = /^\s*(\d+)\s*(b|kb|mb)?\s*$/i.exec(String(v));
      if (!m) {
        ctx.addIssue({ code: 'custom', message: 'not a size' });
        return z.NEVER;
      }
      return Number(m[1]) * (SIZE_UNITS[(m[2] ?? '').toLowerCase()] ?? 1);
    })
    .pipe(z.number().int().min(min).max(max));

export function validCidr(entry: string): boolean {
  const [addr, prefix, extra] = entry.split('/');
  if (addr === undefined || extra !== undefined) return false;
  const family = isIP(addr);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** A JSON setting's schema: text is parsed, then `check` validates (its thrown message names the problem). */
export function jsonValue<T>(check: (v: unknown) => T): z.ZodType {
  return z.unknown().transform((v, ctx) => {
    let value = v;
    if (typeof v === 'string') {
      try {
        value = JSON.parse(v);
      } catch (e) {
        ctx.addIssue({ code: 'custom', message: `not valid JSON (${(e as Error).message})` });
        return z.NEVER;
      }
    }
    try {
      return check(value);
    } catch (e) {
      ctx.addIssue({ code: 'custom', message: (e as Error).message });
      return z.NEVER;
    }
  });
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Broker connections, checked by the library (BROKER_CONFIG_INVALID names the connection and field). */
export function checkBrokers(v: unknown): BrokerConnectionsConfig {
  parseBrokerConnections(v);
  return v as BrokerConnectionsConfig;
}

const HOST_PATTERN = /^(\*\.)?[A-Za-z0-9_]([A-Za-z0-9_-]{0,62})?(\.[A-Za-z0-9_]([A-Za-z0-9_-]{0,62})?)*\.?$/;
const TENANT_OR_STAR = /^(\*|[a-z0-9][a-z0-9_-]{0,62})$/;

/** `{ "tenant": ["api.example.com", "*.example.com"], "*": [...] }`. */
export function checkFetchHosts(v: unknown): Record<string, string[]> {
  if (!isPlainObject(v)) throw new Error('must be an object of tenant ids (or "*") to lists of host names');
  const out: Record<string, string[]> = {};
  for (const [tenant, hosts] of Object.entries(v)) {
    if (!TENANT_OR_STAR.test(tenant)) throw new Error(`"${tenant.slice(0, 70)}" is not a tenant id or "*"`);
    if (!Array.isArray(hosts) || hosts.length > 1000) {
      throw new Error(`"${tenant}" must name a list of at most 1000 host names`);
    }
    for (const h of hosts) {
      if (typeof h !== 'string' || h.length > 253 || !HOST_PATTERN.test(h)) {
        throw new Error(`"${tenant}": ${JSON.stringify(h).slice(0, 80)} is not a host name or *.domain`);
      }
    }
    out[tenant] = [...(hosts as string[])];
  }
  return out;
}
