// asJsonb: a JSON value as a PostgreSQL jsonb column gives it back (what the store answers for a schedule it
// inserted without reading it back). Pure; the conformance suite checks it against the server itself.

import { describe, expect, it } from 'vitest';
import { asJsonb, jsonbKeyOrder } from '../../src/store/postgres/jsonb-value.js';

describe('asJsonb', () => {
  it('orders object keys as jsonb does: shorter first, then by UTF-8 bytes, at every depth', () => {
    const v = asJsonb({ zeta: 1, b: { yy: 1, x: 2, é: 3, z: 4 }, a: [{ bb: 1, a: 2 }] });
    expect(JSON.stringify(v)).toBe('{"a":[{"a":2,"bb":1}],"b":{"x":2,"z":4,"yy":1,"é":3},"zeta":1}');
    expect(['ab', 'é', 'b', '😀', 'ÿ'].sort(jsonbKeyOrder)).toEqual(['b', 'ab', 'é', 'ÿ', '😀']);
  });

  it('writes what JSON text holds: no undefined members, -0 as 0, no shared objects', () => {
    const input = { a: undefined, n: -0, list: [undefined, 1], d: new Date(0), nested: { k: 'v' } };
    const v = asJsonb(input) as Record<string, unknown>;
    expect(JSON.stringify(v)).toBe(
      '{"d":"1970-01-01T00:00:00.000Z","n":0,"list":[null,1],"nested":{"k":"v"}}',
    );
    expect(Object.is(v.n, 0)).toBe(true);
    expect('a' in v).toBe(false);
    expect(v.nested).not.toBe(input.nested);
    expect(asJsonb(null)).toBeNull();
    expect(asJsonb(undefined)).toBeUndefined();
  });

  it('keeps a "__proto__" member as JSON.parse does', () => {
    const input = JSON.parse('{"__proto__": {"x": 1}, "a": 2}') as Record<string, unknown>;
    const v = asJsonb(input);
    expect(Object.keys(v)).toEqual(['a', '__proto__']);
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
  });
});
