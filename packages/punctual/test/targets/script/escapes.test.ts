// Sandbox isolation: what a script can reach is `ctx` and the language, nothing of the host. Globals,
// constructor chains, import(), require, process, eval tricks and prototype pollution of the API objects
// all find nothing, and whatever a script changes dies with its run (the next run on the same thread sees
// a fresh context).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endOf, expectServing, sandbox, TENANT_A, TENANT_B, valueOf, type Sandbox } from './support.js';

const HOST_NAMES = [
  'process',
  'require',
  'module',
  'exports',
  'Buffer',
  'global',
  '__filename',
  '__dirname',
  'setTimeout',
  'setInterval',
  'setImmediate',
  'queueMicrotask',
  'fetch',
  'WebAssembly',
  'Deno',
  'Bun',
  'std',
  'os',
  'scriptArgs',
  'print',
];

describe('script sandbox: escapes', () => {
  let s: Sandbox;
  beforeAll(async () => {
    s = await sandbox({ poolSize: 1 });
  });
  afterAll(() => s.close());

  async function value(source: string, tenantId = TENANT_A): Promise<unknown> {
    const { outcome } = await s.deliver(source, { tenantId });
    return valueOf(outcome);
  }

  it('globalThis holds the language and `console` only: no host object or capability', async () => {
    const names = (await value('export default () => Object.getOwnPropertyNames(globalThis)')) as string[];
    for (const name of HOST_NAMES) expect(names).not.toContain(name);
    expect(names).toContain('console');
    const types = await value(`export default () => [${HOST_NAMES.map((n) => `typeof ${n}`).join(', ')}]`);
    expect(types).toEqual(HOST_NAMES.map(() => 'undefined'));
  });

  it('constructor chains from the API objects lead to the guest’s own Function and global', async () => {
    const found = await value(`export default (ctx) => {
      const F = ctx.log.constructor;
      return [
        F === Function,
        ctx.kv.get.constructor.constructor('return typeof process')(),
        Object.getPrototypeOf(ctx.log) === Function.prototype && ctx.fetch instanceof Function,
        F('return this')() === globalThis,
        (async () => {}).constructor('return typeof require')() instanceof Promise,
        ctx.constructor.constructor('return Object.keys(this).length')() === Object.keys(globalThis).length,
        [].constructor.constructor('return typeof Buffer')(),
        Reflect.ownKeys(ctx).join(),
        Reflect.ownKeys(ctx.kv).join(),
      ];
    }`);
    expect(found).toEqual([
      true,
      'undefined',
      true,
      true,
      true,
      true,
      'undefined',
      'payload,run,log,kv,fetch,checkAgain',
      'get,set,delete,list',
    ]);
  });

  it('import() of any module is refused, and a static import does not compile', async () => {
    const refused = await value(`export default async () => {
      const out = [];
      for (const name of ['fs', 'node:child_process', 'node:worker_threads', './script.js', 'punctual:bootstrap.js',
        'data:text/javascript,export default 1']) {
        try { await import(name); out.push('loaded ' + name); } catch (e) { out.push(e.name); }
      }
      return out;
    }`);
    // Its own module is the one it may import (a second handle on itself, nothing new).
    expect(refused).toEqual([
      'ReferenceError',
      'ReferenceError',
      'ReferenceError',
      'loaded ./script.js',
      'ReferenceError',
      'ReferenceError',
    ]);
    expect(() =>
      s.driver.validate({ script: { source: 'import fs from "fs";\nexport default () => fs' } }, null),
    ).toThrow(expect.objectContaining({ code: 'SCRIPT_SYNTAX_ERROR' }));
    const { outcome } = await s.deliver(
      'import fs from "node:fs";\nexport default () => fs.readFileSync("/etc/passwd")',
    );
    expect(endOf(outcome)).toBe('fail:SCRIPT_SYNTAX_ERROR');
    expect(JSON.stringify(outcome)).toMatch(/could not load module/);
  });

  it('eval and Function evaluate in the sandbox: indirect, direct and nested tricks find no host', async () => {
    const found = await value(`export default () => [
      (0, eval)('typeof require'),
      eval('typeof process'),
      new Function('return typeof this.process')(),
      Function('return (function () { return this })()')() === globalThis,
      eval('(0, eval)')('typeof module'),
      (() => { try { return eval('import.meta.url') } catch (e) { return e.name } })(),
      typeof import.meta,
      JSON.stringify(import.meta),
    ]`);
    expect(found).toEqual([
      'undefined',
      'undefined',
      'undefined',
      true,
      'undefined',
      'SyntaxError',
      'object',
      '{}',
    ]);
  });

  it('the API objects are frozen: replacing or redefining them throws and changes nothing', async () => {
    const found = await value(`export default async (ctx) => {
      const attempts = [
        () => { ctx.kv = { get: () => 'forged' }; },
        () => { ctx.kv.get = () => 'forged'; },
        () => { ctx.run.tenantId = '${TENANT_B}'; },
        () => { Object.defineProperty(ctx, 'fetch', { value: () => 1 }); },
        () => { Object.setPrototypeOf(ctx.kv, { get: () => 'forged' }); },
        () => { delete ctx.kv.get; },
      ];
      const out = attempts.map((f) => { try { f(); return 'changed'; } catch (e) { return e.name; } });
      out.push(Object.isFrozen(ctx), Object.isFrozen(ctx.kv), Object.isFrozen(ctx.run), ctx.run.tenantId);
      return out;
    }`);
    expect(found).toEqual([
      'TypeError',
      'TypeError',
      'TypeError',
      'TypeError',
      'TypeError',
      'TypeError',
      true,
      true,
      true,
      TENANT_A,
    ]);
  });

  it('prototype pollution changes only the polluting run: the host and the next run see nothing', async () => {
    const polluted = await s.deliver(`export default async (ctx) => {
      Object.prototype.tenantId = '${TENANT_B}';
      Object.prototype.polluted = true;
      Array.prototype.push = () => 'hijacked';
      Function.prototype.call = () => 'hijacked';
      JSON.parse = () => ({ forged: true });
      JSON.stringify = () => '"forged"';
      Object.freeze = (o) => o;
      globalThis.console = { log: () => {} };
      ctx.log('still logged');
      await ctx.kv.set('written', { by: 'a' });
      return await ctx.kv.get('written');
    }`);
    // The API captured the built-ins before the script ran: it still works, for the run's own tenant.
    expect(valueOf(polluted.outcome)).toEqual({ by: 'a' });
    expect((await s.store.kvGet(TENANT_A, 'written'))?.value).toEqual({ by: 'a' });
    expect(await s.store.kvGet(TENANT_B, 'written')).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).tenantId).toBeUndefined();
    const next = await value(`export default () => [
      ({}).polluted === undefined, ({}).tenantId === undefined, [].push(1), typeof JSON.parse('{}'), Object.isFrozen(Object.freeze({})),
      typeof console.log, (function () { return 'called'; }).call(null),
    ]`);
    expect(next).toEqual([true, true, 1, 'object', true, 'function', 'called']);
  });

  it('hijacking Promise.prototype.then breaks only the run that did it', async () => {
    const { outcome } = await s.deliver(`export default async (ctx) => {
      Promise.prototype.then = function () { return 'hijacked'; };
      return await ctx.kv.get('written');
    }`);
    expect(endOf(outcome)).toBe('fail:SCRIPT_FAILED');
    expect(await value('export default async (ctx) => (await ctx.kv.get("written")).by')).toBe('a');
  });

  it('values from the host are plain guest data: __proto__ keys stay own properties', async () => {
    await s.store.kvSet(TENANT_A, 'proto', JSON.parse('{"__proto__":{"polluted":true},"ok":1}'), 0, {
      maxKeys: 10,
      maxValueBytes: 1000,
    });
    const found = await value(`export default async (ctx) => {
      const v = await ctx.kv.get('proto');
      return [({}).polluted === undefined, Object.keys(v).sort().join(), v.polluted === undefined];
    }`);
    expect(found).toEqual([true, '__proto__,ok', true]);
  });

  it('errors from the host carry a code and a message, never a host stack or path', async () => {
    const found = (await value(`export default async (ctx) => {
      try { await ctx.fetch('http://127.0.0.1:9/'); } catch (e) {
        return { name: e.name, code: e.code, stack: String(e.stack), proto: Object.getPrototypeOf(e) === Error.prototype };
      }
    }`)) as { name: string; code: string; stack: string; proto: boolean };
    expect(found).toMatchObject({ name: 'Error', code: 'SCRIPT_HOST_CALL_REFUSED', proto: true });
    expect(found.stack).not.toMatch(/node:|\/work\/|\.ts\b|node_modules/);
  });

  it('the run facts are the host’s: ctx.run names the run’s tenant and nothing else', async () => {
    const run = (await value('export default (ctx) => ctx.run', TENANT_B)) as Record<string, unknown>;
    expect(Object.keys(run).sort()).toEqual(
      [
        'attempt',
        'checks',
        'id',
        'kind',
        'occurrenceId',
        'scheduleKey',
        'scheduledFor',
        'startedAt',
        'tenantId',
      ].sort(),
    );
    expect(run.tenantId).toBe(TENANT_B);
    await expectServing(s);
  });
});
