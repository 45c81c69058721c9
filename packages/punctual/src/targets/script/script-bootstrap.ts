// The guest side of the script API: JavaScript evaluated in each fresh QuickJS context before the tenant's
// module, building the frozen `ctx` (payload, run, log, kv, fetch, checkAgain) and a `console` on top of
// three host functions it keeps in closures. It captures the built-ins it uses first, so a script that
// replaces them breaks only itself; the host re-checks everything that crosses (this code is not trusted).

/**
 * Evaluates to a function `(hostCall, hostLog, hostCheckAgain, payloadJson, runJson, limitsJson)` returning
 * `{ ctx, encode, describe, parse }`. `encode(value)` is the value's JSON text, undefined for no value, or
 * null when it grew past the result limit; `describe(thrown)` is a JSON description of a thrown value.
 */
export const BOOTSTRAP = String.raw`(function (hostCall, hostLog, hostCheckAgain, payloadJson, runJson, limitsJson) {
  'use strict';
  const parse = JSON.parse;
  const stringify = JSON.stringify;
  const freeze = Object.freeze;
  const apply = Reflect.apply;
  const slice = String.prototype.slice;
  const getTime = Date.prototype.getTime;
  const dateParse = Date.parse;
  const DateCtor = Date;
  const ErrorCtor = Error;
  const TypeErrorCtor = TypeError;
  const isArray = Array.isArray;
  const toStr = String;
  const limits = parse(limitsJson);
  const TOO_LARGE = freeze({});

  // JSON text of a value, giving up (TOO_LARGE) once the strings and keys seen pass max characters.
  const bounded = (value, max) => {
    let size = 0;
    return stringify(value, function (key, v) {
      size += key.length + (typeof v === 'string' ? v.length : 1) + 1;
      if (size > max) throw TOO_LARGE;
      return v;
    });
  };
  const cut = (s, max) => (s.length > max ? apply(slice, s, [0, max]) : s);

  const formatOne = (v) => {
    if (typeof v === 'string') return v;
    if (v === undefined) return 'undefined';
    if (typeof v === 'function') return '[function]';
    if (typeof v === 'symbol' || typeof v === 'bigint') return toStr(v);
    if (v instanceof ErrorCtor) return toStr(v.name) + ': ' + toStr(v.message);
    try {
      const text = bounded(v, limits.maxLogLineBytes);
      return text === undefined ? toStr(v) : text;
    } catch (e) {
      return e === TOO_LARGE ? (isArray(v) ? '[array too large to log]' : '[object too large to log]') : '[object]';
    }
  };
  const log = (...args) => {
    let line = '';
    for (let i = 0; i < args.length && line.length <= limits.maxLogLineBytes; i++) {
      line += (i === 0 ? '' : ' ') + formatOne(args[i]);
    }
    hostLog(cut(line, limits.maxLogLineBytes));
  };

  // The arguments cross as JSON text; null tells the host they grew past the limit.
  const call = async (op, args) => {
    let json;
    try {
      json = bounded(args, limits.maxArgsBytes);
    } catch (e) {
      if (e !== TOO_LARGE) throw e;
      json = null;
    }
    return hostCall(op, json);
  };
  const keyArg = (key) => (typeof key === 'string' ? key : toStr(key));

  const kv = freeze({
    get: async (key) => call('kv.get', [keyArg(key)]),
    set: async (key, value) => {
      if (value === undefined) throw new TypeErrorCtor('kv.set needs a value (use kv.delete to remove a key)');
      await call('kv.set', [keyArg(key), value]);
    },
    delete: async (key) => call('kv.delete', [keyArg(key)]),
    list: async (options) => {
      const o = options === undefined || options === null ? {} : options;
      return call('kv.list', [{ prefix: o.prefix, cursor: o.cursor, limit: o.limit }]);
    },
  });

  const response = (r) =>
    freeze({
      ok: r.status >= 200 && r.status <= 299,
      status: r.status,
      statusText: r.statusText,
      url: r.url,
      headers: freeze(r.headers),
      truncated: r.truncated,
      text: async () => r.body,
      json: async () => parse(r.body),
    });
  const fetch = async (url, init) => {
    const i = init === undefined || init === null ? {} : init;
    let body = i.body;
    if (body !== undefined && body !== null && typeof body !== 'string') body = stringify(body);
    const request = { method: i.method, headers: i.headers, body: body === null ? undefined : body };
    return response(await call('fetch', [toStr(url), request]));
  };

  const checkAgain = (at) => {
    let ms = at;
    if (at instanceof DateCtor) ms = apply(getTime, at, []);
    else if (typeof at === 'string') ms = dateParse(at);
    if (typeof ms !== 'number' || ms !== ms) throw new TypeErrorCtor('checkAgain needs a time: epoch milliseconds, a Date or an ISO string');
    hostCheckAgain(ms);
  };

  const ctx = freeze({
    payload: parse(payloadJson),
    run: freeze(parse(runJson)),
    log,
    kv,
    fetch,
    checkAgain,
  });
  globalThis.console = freeze({ log, info: log, warn: log, error: log, debug: log });

  const encode = (value) => {
    if (value === undefined) return undefined;
    try {
      return bounded(value, limits.maxResultBytes);
    } catch (e) {
      if (e === TOO_LARGE) return null;
      throw e;
    }
  };
  const text = (v, max) => (typeof v === 'string' ? cut(v, max) : undefined);
  const describe = (thrown) => {
    try {
      if (thrown !== null && (typeof thrown === 'object' || typeof thrown === 'function')) {
        return stringify({
          name: text(thrown.name, 200),
          message: text(thrown.message, 4096),
          stack: text(thrown.stack, 4096),
          code: text(thrown.code, 100),
        });
      }
      return stringify({ value: cut(typeof thrown === 'string' ? thrown : toStr(thrown), 4096) });
    } catch (e) {
      return '{}';
    }
  };
  return freeze({ ctx, encode, describe, parse });
})`;
