// A JSON value as a PostgreSQL jsonb column gives it back once the driver parses it: what was written from
// JSON.stringify(v), with members whose value is undefined dropped, -0 as 0, and every object's keys in
// jsonb's order (shorter keys first, then by their UTF-8 bytes). It lets the store answer with what it wrote
// without reading the row back. Pure: it must never run a statement, and never hand back `v` itself or any
// object inside it (the caller may change its input afterwards).

/** `v` as jsonb stores and returns it (undefined: SQL NULL, as jsonParam writes it). */
export function asJsonb<T>(v: T): T {
  return copy(v) as T;
}

function copy(v: unknown): unknown {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return v;
    case 'number':
      return Number.isFinite(v) ? v + 0 : null; // -0 + 0 is 0; JSON.stringify writes NaN and ±Infinity as null
    case 'undefined':
      return undefined;
    case 'object':
      if (v === null) return null;
      if (Array.isArray(v)) return Array.from(v, (x) => copy(x) ?? null);
      if (isPlain(v)) return copyObject(v as Record<string, unknown>);
      return viaText(v);
    default:
      return viaText(v);
  }
}

/** Anything JSON.stringify treats specially (toJSON, boxed primitives, functions): what it writes. */
function viaText(v: unknown): unknown {
  const text = JSON.stringify(v) as string | undefined;
  return text === undefined ? undefined : copy(JSON.parse(text) as unknown);
}

function isPlain(v: object): boolean {
  const proto = Object.getPrototypeOf(v) as unknown;
  return (
    (proto === Object.prototype || proto === null) && typeof (v as { toJSON?: unknown }).toJSON !== 'function'
  );
}

function copyObject(o: Record<string, unknown>): Record<string, unknown> {
  const keys = Object.keys(o);
  if (!inJsonbOrder(keys)) keys.sort(jsonbKeyOrder);
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    const member = o[k];
    // Members JSON.stringify leaves out.
    if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
    const value = copy(member);
    if (value === undefined) continue;
    // JSON.parse makes "__proto__" an own member; an assignment would set the prototype instead.
    if (k === '__proto__')
      Object.defineProperty(out, k, { value, writable: true, enumerable: true, configurable: true });
    else out[k] = value;
  }
  return out;
}

function inJsonbOrder(keys: string[]): boolean {
  for (let i = 1; i < keys.length; i++) if (jsonbKeyOrder(keys[i - 1]!, keys[i]!) > 0) return false;
  return true;
}

/** jsonb's order of object keys: by UTF-8 length, then byte by byte (code point order). */
export function jsonbKeyOrder(a: string, b: string): number {
  const la = utf8Length(a);
  const lb = utf8Length(b);
  if (la !== lb) return la - lb;
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const ca = a.codePointAt(i)!;
    const cb = b.codePointAt(j)!;
    if (ca !== cb) return ca - cb;
    i += ca > 0xffff ? 2 : 1;
    j += cb > 0xffff ? 2 : 1;
  }
  return 0;
}

function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff) {
      // a pair: 4 bytes for 2 units
      i++;
      n += 2;
    } else n += 2;
  }
  return n;
}
