// One run of a tenant script inside a sandbox thread: a fresh QuickJS runtime and context on a module with
// bounded memory, a deadline interrupt, the guest API bootstrapped before the tenant's module, host calls
// bridged as guest promises, and every ending turned into a ScriptResult with its own code (the log lines it
// returns are bounded by script-logs.ts). It must never hand the guest a host object, let guest code choose
// a tenant, or leave a handle undisposed.

import type {
  QuickJSContext,
  QuickJSDeferredPromise,
  QuickJSHandle,
  QuickJSRuntime,
  VmCallResult,
} from 'quickjs-emscripten';
import {
  HOST_OPS,
  type CallMessage,
  type ReplyMessage,
  type RunMessage,
  type ScriptResult,
} from './protocol.js';
import { BOOTSTRAP } from './script-bootstrap.js';
import {
  abortedEnding,
  guestEnding,
  hostFailureEnding,
  Stop,
  timeoutEnding,
  type Described,
  type Ending,
} from './script-errors.js';
import { ScriptLogs } from './script-logs.js';
import type { BoundedModule } from './script-quickjs.js';

/** The guest threw this value (or a promise the host awaited rejected with it). */
class GuestThrow {
  constructor(readonly handle: QuickJSHandle) {}
}

const TOO_LONG = Symbol('too long');
/** Time the host gives itself past the deadline to describe a thrown value. */
const GRACE_MS = 50;

interface Api {
  ctx: QuickJSHandle;
  encode: QuickJSHandle;
  describe: QuickJSHandle;
  parse: QuickJSHandle;
}

export class ScriptRun {
  /** Set when the module can no longer be trusted (a host-level failure): the thread replaces it. */
  broken = false;
  readonly #job: RunMessage;
  readonly #post: (m: CallMessage) => void;
  readonly #externallyAborted: () => boolean;
  readonly #rt: QuickJSRuntime;
  readonly #vm: QuickJSContext;
  readonly #deadline: number;
  #interruptAt: number;
  #aborted = false;
  /** The interrupt fired: QuickJS may swallow its error inside a promise job, so the host remembers it. */
  #interrupted = false;
  #api: Api | undefined;
  #handles: QuickJSHandle[] = [];
  readonly #pending = new Map<number, QuickJSDeferredPromise>();
  #nextCallId = 1;
  #calls = 0;
  #fetches = 0;
  readonly #issued = new Set<string>();
  #failure: unknown;
  #wake: (() => void) | undefined;
  #phase: 'load' | 'run' | 'encode' = 'load';
  #checkAgainAt: number | undefined;
  readonly #logs: ScriptLogs;

  readonly #memoryFull: () => boolean;

  constructor(
    module: BoundedModule,
    job: RunMessage,
    post: (m: CallMessage) => void,
    aborted: () => boolean,
  ) {
    this.#job = job;
    this.#post = post;
    this.#externallyAborted = aborted;
    this.#memoryFull = module.full;
    this.#logs = new ScriptLogs(job.limits);
    // No allocator limit: the module's bounded WebAssembly memory is the one memory limit (it also stops
    // large strings and arrays, which QuickJS's own limit misses).
    this.#rt = module.mod.newRuntime();
    this.#rt.setMaxStackSize(job.limits.maxStackBytes);
    this.#deadline = performance.now() + job.limits.timeoutMs;
    this.#interruptAt = this.#deadline;
    this.#rt.setInterruptHandler(() => {
      if (this.#isAborted() || performance.now() > this.#interruptAt) this.#interrupted = true;
      return this.#interrupted;
    });
    this.#vm = this.#rt.newContext();
  }

  async execute(): Promise<ScriptResult> {
    let result: ScriptResult;
    try {
      result = await this.#execute();
    } catch (e) {
      result = this.#classify(e);
    }
    this.#cleanup();
    return result;
  }

  /** The host answered a call. */
  reply(m: ReplyMessage): void {
    const deferred = this.#pending.get(m.callId);
    if (deferred === undefined) return;
    this.#pending.delete(m.callId);
    const vm = this.#vm;
    try {
      if (!m.ok) {
        this.#issued.add(m.code);
        const err = this.#guestError(m.code, m.message);
        deferred.reject(err);
        err.dispose();
      } else if (m.json === undefined) {
        deferred.resolve(vm.undefined);
      } else {
        const text = vm.newString(m.json);
        const parsed = vm.callFunction(this.#api!.parse, vm.undefined, text);
        text.dispose();
        if (parsed.error) {
          deferred.reject(parsed.error);
          parsed.error.dispose();
        } else {
          deferred.resolve(parsed.value);
          parsed.value.dispose();
        }
      }
    } catch (e) {
      this.#failure ??= e;
    } finally {
      deferred.dispose();
      this.#wake?.();
    }
  }

  /** The host asked the run to stop (attempt timeout, cancellation, shutdown). */
  abort(): void {
    this.#aborted = true;
    this.#wake?.();
  }

  async #execute(): Promise<ScriptResult> {
    const vm = this.#vm;
    const api = (this.#api = this.#bootstrap());
    const evaluated = vm.evalCode(this.#job.source, 'script.js', { type: 'module' });
    const namespace = await this.#settle(this.#unwrap(evaluated));
    this.#phase = 'run';
    const fn = this.#keep(vm.getProp(namespace, 'default'));
    if (vm.typeof(fn) !== 'function') {
      throw new Stop(
        'SCRIPT_FAILED',
        'the script must `export default` a function (it is called with ctx)',
        false,
      );
    }
    const value = await this.#settle(this.#unwrap(vm.callFunction(fn, vm.undefined, api.ctx)));
    if (this.#checkAgainAt !== undefined)
      return { type: 'checkAgain', at: this.#checkAgainAt, logs: this.#logs.list() };
    const json = this.#encode(value);
    return json === undefined
      ? { type: 'ok', logs: this.#logs.list() }
      : { type: 'ok', json, logs: this.#logs.list() };
  }

  #bootstrap(): Api {
    const vm = this.#vm;
    const l = this.#job.limits;
    const fn = this.#unwrap(vm.evalCode(BOOTSTRAP, 'punctual:bootstrap.js'));
    const guestLimits = {
      maxLogLineBytes: l.maxLogLineBytes,
      maxArgsBytes: l.maxArgsBytes,
      maxResultBytes: l.maxResultBytes,
    };
    const args = [
      vm.newFunction('call', (op, args) => this.#hostCall(op, args)),
      vm.newFunction('log', (line) => this.#hostLog(line)),
      vm.newFunction('checkAgain', (at) => this.#hostCheckAgain(at)),
      vm.newString(this.#job.payloadJson),
      vm.newString(this.#job.runJson),
      vm.newString(JSON.stringify(guestLimits)),
    ].map((h) => this.#keep(h));
    const api = this.#unwrap(vm.callFunction(fn, vm.undefined, ...args));
    const prop = (name: string): QuickJSHandle => this.#keep(vm.getProp(api, name));
    return { ctx: prop('ctx'), encode: prop('encode'), describe: prop('describe'), parse: prop('parse') };
  }

  /** Runs guest jobs until `h` (a promise or a plain value) settles, waiting for host replies between. */
  async #settle(h: QuickJSHandle): Promise<QuickJSHandle> {
    for (;;) {
      this.#checkTime();
      const jobs = this.#rt.executePendingJobs();
      if (jobs.error) throw new GuestThrow(this.#keep(jobs.error));
      if (this.#interrupted)
        throw this.#isAborted() ? abortedEnding() : timeoutEnding(this.#job.limits.timeoutMs);
      if (this.#failure !== undefined) throw this.#failure;
      const state = this.#vm.getPromiseState(h);
      if (state.type === 'fulfilled') return state.notAPromise ? h : this.#keep(state.value);
      if (state.type === 'rejected') throw new GuestThrow(this.#keep(state.error));
      if (this.#pending.size === 0) {
        throw new Stop(
          'SCRIPT_FAILED',
          'the script awaits a promise that can never settle (no host call is in flight; scripts have no timers)',
          false,
        );
      }
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          this.#wake = undefined;
          resolve();
        };
        const timer = setTimeout(done, Math.max(0, this.#deadline - performance.now()) + 1);
        this.#wake = done;
      });
    }
  }

  #encode(value: QuickJSHandle): string | undefined {
    const vm = this.#vm;
    const max = this.#job.limits.maxResultBytes;
    this.#phase = 'encode';
    const h = this.#unwrap(vm.callFunction(this.#api!.encode, vm.undefined, value));
    const type = vm.typeof(h);
    if (type === 'undefined') return undefined;
    const text = type === 'string' ? this.#readString(h, max) : TOO_LONG;
    if (typeof text !== 'string' || Buffer.byteLength(text, 'utf8') > max) {
      throw new Stop(
        'SCRIPT_RESULT_TOO_LARGE',
        `the return value is larger than ${max} bytes as JSON`,
        false,
      );
    }
    return text;
  }

  // ── host functions (called by the guest) ───────────────────────────────────────────────────────────
  #hostCall(opHandle: QuickJSHandle, argsHandle: QuickJSHandle): QuickJSHandle | VmCallResult<QuickJSHandle> {
    const l = this.#job.limits;
    const op = this.#readString(opHandle, 16);
    if (typeof op !== 'string' || !(HOST_OPS as readonly string[]).includes(op)) {
      return { error: this.#refuse('there is no such host call') };
    }
    if (++this.#calls > l.maxHostCalls) {
      return { error: this.#refuse(`a run may make at most ${l.maxHostCalls} host calls`) };
    }
    if (this.#pending.size >= l.maxPendingHostCalls) {
      return { error: this.#refuse(`a run may have at most ${l.maxPendingHostCalls} host calls in flight`) };
    }
    if (op === 'fetch' && ++this.#fetches > l.maxFetches) {
      return { error: this.#refuse(`a run may fetch at most ${l.maxFetches} times`) };
    }
    const argsJson = this.#readString(argsHandle, l.maxArgsBytes);
    if (typeof argsJson !== 'string') {
      if (op !== 'kv.set') {
        return { error: this.#refuse(`the arguments of ${op} are larger than ${l.maxArgsBytes} bytes`) };
      }
      this.#issued.add('KV_QUOTA_EXCEEDED');
      return {
        error: this.#guestError('KV_QUOTA_EXCEEDED', 'the value is too large for the key-value store'),
      };
    }
    const callId = this.#nextCallId++;
    const deferred = this.#vm.newPromise();
    this.#pending.set(callId, deferred);
    this.#post({ type: 'call', jobId: this.#job.jobId, callId, op: op as CallMessage['op'], argsJson });
    return deferred.handle;
  }

  #hostLog(lineHandle: QuickJSHandle): void {
    this.#logs.add(() => this.#readString(lineHandle, this.#job.limits.maxLogLineBytes));
  }

  #hostCheckAgain(atHandle: QuickJSHandle): VmCallResult<QuickJSHandle> | void {
    const at = this.#vm.typeof(atHandle) === 'number' ? this.#vm.getNumber(atHandle) : NaN;
    if (!Number.isFinite(at)) {
      return { error: this.#vm.newError({ name: 'TypeError', message: 'checkAgain needs a finite time' }) };
    }
    this.#checkAgainAt = Math.round(at);
  }

  // ── helpers ────────────────────────────────────────────────────────────────────────────────────────
  #keep(h: QuickJSHandle): QuickJSHandle {
    this.#handles.push(h);
    return h;
  }

  #unwrap(r: VmCallResult<QuickJSHandle>): QuickJSHandle {
    if (r.error) throw new GuestThrow(this.#keep(r.error));
    return this.#keep(r.value);
  }

  /** A guest string of at most `max` characters (read without copying a longer one), TOO_LONG, or undefined. */
  #readString(h: QuickJSHandle, max: number): string | typeof TOO_LONG | undefined {
    const vm = this.#vm;
    if (vm.typeof(h) !== 'string') return undefined;
    const length = vm.getProp(h, 'length');
    const n = vm.getNumber(length);
    length.dispose();
    return n > max ? TOO_LONG : vm.getString(h);
  }

  #guestError(code: string, message: string): QuickJSHandle {
    const vm = this.#vm;
    const err = vm.newError({ name: 'Error', message });
    const c = vm.newString(code);
    vm.defineProp(err, 'code', { value: c, configurable: true, enumerable: true });
    c.dispose();
    return err;
  }

  #refuse(message: string): QuickJSHandle {
    this.#issued.add('SCRIPT_HOST_CALL_REFUSED');
    return this.#guestError('SCRIPT_HOST_CALL_REFUSED', message);
  }

  #isAborted(): boolean {
    return this.#aborted || this.#externallyAborted();
  }

  #checkTime(): void {
    if (this.#isAborted()) throw abortedEnding();
    if (performance.now() > this.#deadline) throw timeoutEnding(this.#job.limits.timeoutMs);
  }

  #describe(h: QuickJSHandle): Described {
    const vm = this.#vm;
    this.#interruptAt = Math.max(this.#interruptAt, performance.now() + GRACE_MS);
    try {
      const r = vm.callFunction(this.#api!.describe, vm.undefined, h);
      if (r.error) {
        r.error.dispose();
        return {};
      }
      const text = this.#readString(this.#keep(r.value), 16_384);
      return typeof text === 'string' ? (JSON.parse(text) as Described) : {};
    } catch {
      return {};
    }
  }

  #classify(e: unknown): ScriptResult {
    const logs = this.#logs.list();
    let end: Ending;
    if (e instanceof Stop) end = e;
    else if (e instanceof GuestThrow) end = this.#guestEnding(e);
    else {
      this.broken = true; // a failure of the host side of the sandbox: the module is no longer trusted
      end = hostFailureEnding(
        e,
        this.#isAborted(),
        performance.now() > this.#deadline,
        this.#job.limits.timeoutMs,
      );
    }
    const { code, message, retry, stack } = end;
    return stack
      ? { type: 'error', code, message, stack, retry, logs }
      : { type: 'error', code, message, retry, logs };
  }

  #guestEnding(e: GuestThrow): Ending {
    if (this.#isAborted()) return abortedEnding();
    if (this.#interrupted || performance.now() > this.#deadline)
      return timeoutEnding(this.#job.limits.timeoutMs);
    const d = this.#api ? this.#describe(e.handle) : { name: 'InternalError', message: 'out of memory' };
    return guestEnding(d, {
      phase: this.#phase,
      issued: this.#issued,
      memoryFull: this.#memoryFull,
      timeoutMs: this.#job.limits.timeoutMs,
    });
  }

  #cleanup(): void {
    for (const d of this.#pending.values()) {
      try {
        d.dispose();
      } catch {
        this.broken = true;
      }
    }
    this.#pending.clear();
    if (this.broken) return; // the module is dropped whole
    try {
      for (const h of this.#handles) if (h.alive) h.dispose();
      this.#handles = [];
      this.#vm.dispose();
      this.#rt.dispose();
    } catch {
      this.broken = true;
    }
  }
}
