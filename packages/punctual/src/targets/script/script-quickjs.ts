// Loading QuickJS (quickjs-emscripten, synchronous release variant) lazily, compiling its WebAssembly once,
// and creating modules whose WebAssembly memory is bounded: the one limit that also stops large strings and
// arrays. It must never be imported eagerly by code that runs without scripts (the dependency is optional).

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type * as QuickJSLib from 'quickjs-emscripten';
import type { QuickJSWASMModule } from 'quickjs-emscripten';

type QuickJSLibrary = typeof QuickJSLib;

/** A compiled WebAssembly module, opaque here (the Node 20 types do not declare WebAssembly). */
export type WasmModule = object & { readonly __wasmModule?: never };
interface WasmApi {
  compile(bytes: Uint8Array): Promise<WasmModule>;
  Memory: new (descriptor: { initial: number; maximum: number }) => object;
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** Memory the QuickJS module needs before any script (its data, C stack and first heap): 16 MiB. */
export const BASE_MEMORY_MB = 16;
const PAGES_PER_MB = 16; // WebAssembly pages are 64 KiB

export interface QuickJS {
  lib: QuickJSLibrary;
  /** The compiled module, or undefined when its file could not be found (each module then compiles it). */
  wasmModule: WasmModule | undefined;
}

let loading: Promise<QuickJSLibrary> | undefined;

/** Imports quickjs-emscripten once; a clear error when the optional dependency is not installed. */
export function loadLibrary(): Promise<QuickJSLibrary> {
  loading ??= import('quickjs-emscripten').catch((e: unknown) => {
    loading = undefined;
    throw new Error(
      'script targets need the optional dependency quickjs-emscripten (npm install quickjs-emscripten@^0.32): ' +
        (e instanceof Error ? e.message : String(e)),
      { cause: e },
    );
  });
  return loading;
}

/** Compiles the release-sync variant's WebAssembly from its package (undefined when it cannot be found). */
export async function compileWasm(): Promise<WasmModule | undefined> {
  try {
    const require = createRequire(import.meta.url);
    const variant = createRequire(require.resolve('quickjs-emscripten')).resolve(
      '@jitl/quickjs-wasmfile-release-sync/package.json',
    );
    return await wasm.compile(await readFile(join(dirname(variant), 'dist', 'emscripten-module.wasm')));
  } catch {
    return undefined;
  }
}

export async function loadQuickJS(): Promise<QuickJS> {
  const lib = await loadLibrary();
  return { lib, wasmModule: await compileWasm() };
}

/** A QuickJS module and the WebAssembly memory it cannot grow past. */
export interface BoundedModule {
  mod: QuickJSWASMModule;
  /** True when the memory has grown to (nearly) its maximum: an allocation failing now is out of memory. */
  full(): boolean;
}

/**
 * A fresh QuickJS module whose WebAssembly memory can never grow past BASE_MEMORY_MB + `memoryMb`: an
 * allocation beyond it fails inside the guest ("out of memory") instead of growing the host.
 */
export async function boundedModule(q: QuickJS, memoryMb: number): Promise<BoundedModule> {
  const maximum = (BASE_MEMORY_MB + memoryMb) * PAGES_PER_MB;
  const memory = new wasm.Memory({ initial: BASE_MEMORY_MB * PAGES_PER_MB, maximum }) as {
    buffer: ArrayBuffer;
  };
  const variant = q.lib.newVariant(q.lib.RELEASE_SYNC, {
    wasmMemory: memory as never,
    ...(q.wasmModule ? { wasmModule: q.wasmModule as never } : {}),
    // Quiet: an aborted module (a failed runtime disposal) is reported by the thread, not printed.
    emscriptenModule: { print: () => {}, printErr: () => {} } as never,
  });
  const mod = await q.lib.newQuickJSWASMModuleFromVariant(variant);
  const maxBytes = maximum * 65536;
  const slack = Math.max(2 * 1024 * 1024, maxBytes / 8); // the allocator grows the memory in steps
  return { mod, full: () => memory.buffer.byteLength >= maxBytes - slack };
}
