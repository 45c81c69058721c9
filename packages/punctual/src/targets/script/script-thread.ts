// The entry of a sandbox thread (worker_threads): loads QuickJS, keeps one module with bounded memory sized
// for the memory limit of the run at hand (replaced after an out-of-memory or a host-level failure), and
// runs one script at a time for the host. It must never run two scripts at once, nor act on a call itself:
// kv and fetch are performed by the host, which fixes the tenant.

import { parentPort, workerData } from 'node:worker_threads';
import type { HostToThread, RunMessage, ScriptResult, ThreadData, ThreadToHost } from './protocol.js';
import { ScriptRun } from './script-run.js';
import { boundedModule, loadLibrary, type BoundedModule, type QuickJS } from './script-quickjs.js';

const port = parentPort!;
const data = workerData as ThreadData;
const abortFlag = new Int32Array(data.abortFlag);
const send = (m: ThreadToHost): void => port.postMessage(m);

let quickjs: QuickJS;
let engine: { module: BoundedModule; memoryMb: number } | undefined;
let current: { jobId: number; run: ScriptRun | undefined; aborted: boolean } | undefined;

async function moduleFor(memoryMb: number): Promise<BoundedModule> {
  if (engine?.memoryMb === memoryMb) return engine.module;
  engine = undefined; // the old module (and its memory) goes to the garbage collector
  const module = await boundedModule(quickjs, memoryMb);
  engine = { module, memoryMb };
  return module;
}

async function run(job: RunMessage): Promise<void> {
  const slot: { jobId: number; run: ScriptRun | undefined; aborted: boolean } = {
    jobId: job.jobId,
    run: undefined,
    aborted: false,
  };
  current = slot;
  let result: ScriptResult;
  try {
    const mod = await moduleFor(job.limits.memoryMb);
    const r = new ScriptRun(mod, job, send, () => Atomics.load(abortFlag, 0) === job.jobId);
    slot.run = r;
    if (slot.aborted) r.abort();
    result = await r.execute();
    // A fresh module after a broken one or an out-of-memory: no state of a bomb is carried to the next run.
    if (r.broken || (result.type === 'error' && result.code === 'SCRIPT_OUT_OF_MEMORY')) engine = undefined;
  } catch (e) {
    engine = undefined;
    const why = e instanceof Error ? e.message : String(e);
    result = {
      type: 'error',
      code: 'SCRIPT_FAILED',
      message: `the sandbox could not run the script: ${why}`,
      retry: true,
      logs: [],
    };
  }
  current = undefined;
  send({ type: 'done', jobId: job.jobId, result });
}

port.on('message', (m: HostToThread) => {
  if (m.type === 'run') {
    void run(m);
  } else if (current?.jobId === m.jobId) {
    if (m.type === 'reply') current.run?.reply(m);
    else {
      current.aborted = true;
      current.run?.abort();
    }
  }
});

try {
  quickjs = { lib: await loadLibrary(), wasmModule: data.wasmModule };
  await moduleFor(data.warmMemoryMb);
  send({ type: 'ready' });
} catch (e) {
  send({ type: 'failed', message: e instanceof Error ? e.message : String(e) });
}
