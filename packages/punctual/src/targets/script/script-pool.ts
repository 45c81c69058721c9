// The pool of sandbox threads (worker_threads): a fixed number of threads, one script at a time each, jobs
// queued per tenant and taken in turn, the tenant with the fewest running first (one tenant's flood waits
// behind itself, not in front of others), admission advice for the worker (`admits`: a free thread, or one
// queued job per tenant, at most `size` queued in all),
// host calls answered for the job's tenant, and a thread that does not stop by its deadline plus a hard
// margin, or that dies, terminated and replaced. It must never run a job on a thread that is not ready.

import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type {
  CallMessage,
  CallReply,
  HostOp,
  RunLimits,
  ScriptResult,
  ThreadData,
  ThreadToHost,
} from './protocol.js';
import type { WasmModule } from './script-quickjs.js';

export interface PoolJob {
  tenantId: string;
  source: string;
  payloadJson: string;
  runJson: string;
  limits: RunLimits;
  /** Performs a host call for this job's tenant; must resolve (never reject). */
  onCall(op: HostOp, argsJson: string): Promise<CallReply>;
  /** Stops the job (queued: it never starts; running: the thread interrupts it). */
  signal: AbortSignal;
}

export interface ScriptPoolOptions {
  /** Threads in the pool. */
  size: number;
  /** How long past its time limit a run may take to stop before its thread is terminated. */
  hardMarginMs: number;
  /** The compiled QuickJS module, shared with every thread. */
  wasmModule: WasmModule | undefined;
  /** The memory limit the threads prepare a module for before they report ready. */
  warmMemoryMb: number;
}

export interface ScriptPoolStats {
  threads: number;
  busy: number;
  queued: number;
  /** Threads terminated and replaced so far (a run past its hard margin, or a thread that died). */
  replaced: number;
}

interface Job {
  job: PoolJob;
  jobId: number;
  resolve: (r: ScriptResult) => void;
  onAbort: () => void;
  done: boolean;
}

interface Thread {
  worker: Worker;
  flag: Int32Array;
  ready: boolean;
  dead: boolean;
  started: Promise<void>;
  active: { job: Job; timer: NodeJS.Timeout } | undefined;
}

const RESPAWN_DELAY_MS = 1000;

function ended(
  code: 'SCRIPT_TIMEOUT' | 'SCRIPT_FAILED' | 'SCRIPT_OUT_OF_MEMORY',
  message: string,
  retry: boolean,
) {
  return { type: 'error' as const, code, message, retry, logs: [] };
}

/** How to start a thread: the built entry, or (from TypeScript sources) the .ts entry with tsx registered. */
function threadEntry(): { filename: string | URL; eval: boolean } {
  const self = import.meta.url;
  if (!self.endsWith('.ts')) return { filename: new URL('./script-thread.js', self), eval: false };
  const tsx = createRequire(self).resolve('tsx/package.json');
  const api = pathToFileURL(join(dirname(tsx), 'dist', 'esm', 'api', 'index.mjs')).href;
  const entry = new URL('./script-thread.ts', self).href;
  const code = `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
  return { filename: code, eval: true };
}

export class ScriptPool {
  readonly #opts: ScriptPoolOptions;
  readonly #threads: Thread[] = [];
  /** Waiting jobs per tenant; the map's order is the turn order (a served tenant goes to the back). */
  readonly #queues = new Map<string, Job[]>();
  #queued = 0;
  #nextJobId = 1;
  #replaced = 0;
  #closed = false;

  /** Starts the threads and waits until every one is ready (rejects when a thread cannot start). */
  static async start(opts: ScriptPoolOptions): Promise<ScriptPool> {
    const pool = new ScriptPool(opts);
    try {
      await Promise.all(pool.#threads.map((t) => t.started));
    } catch (e) {
      await pool.close();
      throw e;
    }
    return pool;
  }

  private constructor(opts: ScriptPoolOptions) {
    this.#opts = opts;
    for (let i = 0; i < opts.size; i++) this.#threads.push(this.#spawn());
  }

  get stats(): ScriptPoolStats {
    return {
      threads: this.#threads.length,
      busy: this.#threads.filter((t) => t.active !== undefined).length,
      queued: this.#queued,
      replaced: this.#replaced,
    };
  }

  /**
   * Whether a job of `tenantId` should be given to the pool now: a thread is free for it, or the tenant has
   * no job queued yet and fewer than `size` jobs are queued in all. More would only wait here while holding
   * an engine slot; the engine keeps them waiting instead and asks again when a run ends. Without a tenant:
   * whether a thread is free or fewer than `size` jobs are queued.
   */
  admits(tenantId?: string): boolean {
    const size = this.#threads.length;
    const busy = this.#threads.filter((t) => t.active !== undefined).length;
    if (busy + this.#queued < size) return true;
    if (this.#queued >= size) return false;
    return tenantId === undefined || (this.#queues.get(tenantId)?.length ?? 0) === 0;
  }

  /** Runs a job on the next free thread (tenants take turns); resolves with how it ended. */
  run(job: PoolJob): Promise<ScriptResult> {
    if (this.#closed) return Promise.resolve(ended('SCRIPT_FAILED', 'the script pool is closed', true));
    if (job.signal.aborted) {
      return Promise.resolve(
        ended('SCRIPT_TIMEOUT', 'the attempt was aborted before the script started', true),
      );
    }
    return new Promise((resolve) => {
      const j: Job = { job, jobId: this.#nextJobId++, resolve, onAbort: () => this.#abort(j), done: false };
      job.signal.addEventListener('abort', j.onAbort, { once: true });
      const list = this.#queues.get(job.tenantId);
      if (list) list.push(j);
      else this.#queues.set(job.tenantId, [j]);
      this.#queued++;
      this.#pump();
    });
  }

  /** Stops every thread; waiting and running jobs end with SCRIPT_FAILED (retryable). */
  async close(): Promise<void> {
    this.#closed = true;
    for (const list of this.#queues.values()) {
      for (const j of list) this.#finish(j, ended('SCRIPT_FAILED', 'the script pool was closed', true));
    }
    this.#queues.clear();
    this.#queued = 0;
    const stopping: Promise<number>[] = [];
    for (const t of this.#threads) {
      if (t.active) this.#finish(t.active.job, ended('SCRIPT_FAILED', 'the script pool was closed', true));
      this.#release(t);
      t.dead = true;
      stopping.push(t.worker.terminate());
    }
    await Promise.allSettled(stopping);
  }

  #spawn(delayMs = 0): Thread {
    const flag = new SharedArrayBuffer(4);
    const data: ThreadData = {
      wasmModule: this.#opts.wasmModule,
      abortFlag: flag,
      warmMemoryMb: this.#opts.warmMemoryMb,
    };
    const entry = threadEntry();
    let started!: () => void;
    let failed!: (e: Error) => void;
    const thread: Thread = {
      worker: undefined as unknown as Worker,
      flag: new Int32Array(flag),
      ready: false,
      dead: false,
      started: new Promise<void>((resolve, reject) => {
        started = resolve;
        failed = reject;
      }),
      active: undefined,
    };
    thread.started.catch(() => {}); // start() reports it; a replacement's failure is retried
    const create = (): void => {
      if (this.#closed) {
        failed(new Error('the script pool was closed'));
        return;
      }
      const worker = new Worker(entry.filename, {
        eval: entry.eval,
        workerData: data,
        // A large V8 stack so QuickJS's own stack limit (maxStackBytes) is always reached first.
        resourceLimits: { stackSizeMb: 16, maxOldGenerationSizeMb: 256 },
      });
      thread.worker = worker;
      worker.unref();
      worker.on('message', (m: ThreadToHost) => {
        if (m.type === 'ready') {
          thread.ready = true;
          started();
          this.#pump();
        } else if (m.type === 'failed') {
          failed(new Error(`a script thread could not start: ${m.message}`));
          void worker.terminate();
        } else if (m.type === 'call') this.#call(thread, m);
        else if (m.type === 'done' && thread.active?.job.jobId === m.jobId) {
          this.#finish(thread.active.job, m.result);
          this.#release(thread);
          this.#pump();
        }
      });
      worker.on('error', (e) => this.#lost(thread, e, failed));
      worker.on('exit', (code) => this.#lost(thread, new Error(`the thread exited (code ${code})`), failed));
    };
    if (delayMs > 0) setTimeout(create, delayMs).unref();
    else create();
    return thread;
  }

  /** A thread died or was terminated: end its job, and put a new thread in its place. */
  #lost(t: Thread, e: Error, failed: (e: Error) => void): void {
    if (t.dead) return;
    t.dead = true;
    failed(e);
    if (t.active) {
      const oom = (e as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.#finish(
        t.active.job,
        oom
          ? ended('SCRIPT_OUT_OF_MEMORY', 'the sandbox thread ran out of memory and was replaced', false)
          : ended('SCRIPT_FAILED', `the sandbox thread stopped (${e.message}) and was replaced`, true),
      );
      this.#release(t);
    }
    this.#replace(t, t.ready ? 0 : RESPAWN_DELAY_MS);
  }

  #replace(t: Thread, delayMs: number): void {
    const i = this.#threads.indexOf(t);
    if (i < 0 || this.#closed) return;
    this.#replaced++;
    this.#threads[i] = this.#spawn(delayMs);
  }

  #pump(): void {
    if (this.#closed) return;
    for (const t of this.#threads) {
      if (!t.ready || t.dead || t.active) continue;
      const j = this.#dequeue();
      if (!j) return;
      this.#dispatch(t, j);
    }
  }

  /** The next job: of the waiting tenant with the fewest running jobs, in turn order among equals. */
  #dequeue(): Job | undefined {
    let pick: string | undefined;
    let fewest = Infinity;
    for (const tenantId of this.#queues.keys()) {
      const running = this.#threads.filter((t) => t.active?.job.job.tenantId === tenantId).length;
      if (running < fewest) [pick, fewest] = [tenantId, running];
    }
    if (pick === undefined) return undefined;
    const list = this.#queues.get(pick)!;
    const j = list.shift()!;
    this.#queues.delete(pick); // a served tenant goes to the back of the turn order
    if (list.length > 0) this.#queues.set(pick, list);
    this.#queued--;
    return j;
  }

  #dispatch(t: Thread, j: Job): void {
    const { job } = j;
    Atomics.store(t.flag, 0, 0);
    const hardMs = job.limits.timeoutMs + this.#opts.hardMarginMs;
    const timer = setTimeout(() => {
      if (t.active?.job !== j) return;
      this.#finish(
        j,
        ended(
          'SCRIPT_TIMEOUT',
          `the script did not stop within ${this.#opts.hardMarginMs} ms past its time limit of ` +
            `${job.limits.timeoutMs} ms; its thread was terminated and replaced`,
          false,
        ),
      );
      this.#release(t);
      t.dead = true;
      void t.worker.terminate();
      this.#replace(t, 0);
    }, hardMs);
    timer.unref();
    t.active = { job: j, timer };
    t.worker.postMessage({
      type: 'run',
      jobId: j.jobId,
      source: job.source,
      payloadJson: job.payloadJson,
      runJson: job.runJson,
      limits: job.limits,
    });
  }

  #call(t: Thread, m: CallMessage): void {
    const active = t.active?.job;
    if (active?.jobId !== m.jobId) return;
    const reply = (r: CallReply): void => {
      if (t.active?.job === active && !t.dead) {
        t.worker.postMessage({ type: 'reply', jobId: m.jobId, callId: m.callId, ...r });
      }
    };
    active.job
      .onCall(m.op, m.argsJson)
      .then(reply, (e: unknown) =>
        reply({ ok: false, code: 'SCRIPT_FAILED', message: e instanceof Error ? e.message : String(e) }),
      );
  }

  #abort(j: Job): void {
    if (j.done) return;
    for (const [tenantId, list] of this.#queues) {
      const i = list.indexOf(j);
      if (i < 0) continue;
      list.splice(i, 1);
      if (list.length === 0) this.#queues.delete(tenantId);
      this.#queued--;
      this.#finish(j, ended('SCRIPT_TIMEOUT', 'the attempt was aborted before the script started', true));
      return;
    }
    const t = this.#threads.find((x) => x.active?.job === j);
    if (t) {
      Atomics.store(t.flag, 0, j.jobId); // read by the interrupt handler while the script runs
      t.worker.postMessage({ type: 'abort', jobId: j.jobId }); // wakes a script awaiting a host call
    }
  }

  #finish(j: Job, result: ScriptResult): void {
    if (j.done) return;
    j.done = true;
    j.job.signal.removeEventListener('abort', j.onAbort);
    j.resolve(result);
  }

  #release(t: Thread): void {
    if (t.active) clearTimeout(t.active.timer);
    t.active = undefined;
  }
}
