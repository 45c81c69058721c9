// The save-time compile check of a script, on the main thread and synchronous (a target's `validate` is):
// QuickJS parses the source as a module without running it, in a small dedicated module with bounded
// memory, a small stack and a short deadline. A syntax error becomes SCRIPT_SYNTAX_ERROR with its line and
// column. It must never run any of the source; a module it cannot trust any more is swapped for a spare.

import { PunctualError } from '../../errors.js';
import { boundedModule, type BoundedModule, type QuickJS } from './script-quickjs.js';

/** Memory and stack of the compiler: parsing 64 KiB of source needs far less. */
const COMPILE_MEMORY_MB = 16;
/** Small enough that QuickJS's own check fires before the main thread's V8 stack overflows. */
const COMPILE_STACK_BYTES = 32 * 1024;
/** A deadline for the check (parsing never polls it; it is a second wall should anything run). */
const COMPILE_DEADLINE_MS = 200;
/**
 * Appended to the source: an import no loader can satisfy, so the module is parsed and then fails to link,
 * and its body can never run. (quickjs-emscripten's compile-only flag is not usable for modules.) On a
 * line of its own, it leaves the lines and columns of the source unchanged.
 */
const NEVER_LINKS = 'punctual:compile-check';
const GUARD = `\nimport "${NEVER_LINKS}";\n`;

function syntaxError(message: string, line?: number, column?: number): PunctualError {
  const where =
    line === undefined ? '' : ` (line ${line}${column === undefined ? '' : `, column ${column}`})`;
  return new PunctualError('SCRIPT_SYNTAX_ERROR', `the script does not compile: ${message}${where}`, {
    field: 'target.script.source',
    ...(line === undefined ? {} : { line }),
    ...(column === undefined ? {} : { column }),
  });
}

export class ScriptCompiler {
  readonly #quickjs: QuickJS;
  #active: BoundedModule | undefined;
  #spare: BoundedModule | undefined;
  #refilling: Promise<void> | undefined;

  private constructor(quickjs: QuickJS, active: BoundedModule, spare: BoundedModule) {
    this.#quickjs = quickjs;
    this.#active = active;
    this.#spare = spare;
  }

  static async create(quickjs: QuickJS): Promise<ScriptCompiler> {
    const [active, spare] = await Promise.all([
      boundedModule(quickjs, COMPILE_MEMORY_MB),
      boundedModule(quickjs, COMPILE_MEMORY_MB),
    ]);
    return new ScriptCompiler(quickjs, active, spare);
  }

  /** Resolves once a spare module is in place again (for tests). */
  async settled(): Promise<void> {
    await this.#refilling;
  }

  /** Parses `source` as a module; throws SCRIPT_SYNTAX_ERROR (with line and column when known). */
  check(source: string): void {
    const mod = this.#active;
    if (mod === undefined) {
      this.#refilling ??= this.#refill()
        .catch(() => {})
        .finally(() => (this.#refilling = undefined));
      throw new PunctualError(
        'SCHEDULE_INVALID',
        'the script compiler is restarting; try again in a moment',
        {
          field: 'target.script.source',
        },
      );
    }
    let failure: PunctualError | undefined;
    let broken = false;
    try {
      const rt = mod.mod.newRuntime();
      rt.setMaxStackSize(COMPILE_STACK_BYTES);
      const deadline = performance.now() + COMPILE_DEADLINE_MS;
      rt.setInterruptHandler(() => performance.now() > deadline);
      const vm = rt.newContext();
      const r = vm.evalCode(source + GUARD, 'script.js', { type: 'module' });
      if (r.error) {
        // A parse or link error is a plain error object: reading it runs none of the source.
        const e = vm.dump(r.error) as {
          name?: string;
          message?: string;
          stack?: string;
          lineNumber?: number;
        };
        r.error.dispose();
        failure = this.#failure(e ?? {}, source);
      } else {
        r.value.dispose();
        failure = syntaxError('the compile check could not stop the module from running');
      }
      vm.dispose();
      rt.dispose();
    } catch (e) {
      // The host's own stack ran out inside QuickJS (or QuickJS aborted): this module is done for.
      broken = true;
      failure =
        e instanceof RangeError
          ? syntaxError('it is nested too deeply')
          : syntaxError(`the compiler failed: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (broken) this.#replaceActive();
    if (failure) throw failure;
  }

  /** What a parse or link error means; undefined for the one expected error (the guard import). */
  #failure(
    e: { name?: string; message?: string; stack?: string; lineNumber?: number },
    source: string,
  ): PunctualError | undefined {
    const message = e.message ?? 'unknown error';
    if (e.name === 'ReferenceError' && message.includes(`'${NEVER_LINKS}'`)) return undefined;
    const at = /script\.js:(\d+):(\d+)/.exec(e.stack ?? '');
    const line = at ? Number(at[1]) : e.lineNumber;
    const column = at ? Number(at[2]) : undefined;
    const lines = source.split('\n');
    if (line !== undefined && line > lines.length) {
      // Reported in the appended guard: the source itself ended too early.
      const end = lines.length;
      return syntaxError(
        'unexpected end of the script (an unclosed bracket, string, template or comment)',
        end,
        lines[end - 1]!.length + 1,
      );
    }
    if (message === 'stack overflow') return syntaxError('it is nested too deeply', line, column);
    if (e.name === 'ReferenceError' && /could not load module/.test(message)) {
      return syntaxError(`scripts cannot import modules (${message})`, line, column);
    }
    return syntaxError(message, line, column);
  }

  #replaceActive(): void {
    this.#active = this.#spare;
    this.#spare = undefined;
    this.#refilling ??= this.#refill()
      .catch(() => {}) // the next check reports a compiler without a module
      .finally(() => (this.#refilling = undefined));
  }

  async #refill(): Promise<void> {
    while (this.#active === undefined || this.#spare === undefined) {
      const next = await boundedModule(this.#quickjs, COMPILE_MEMORY_MB);
      if (this.#active === undefined) this.#active = next;
      else this.#spare = next;
    }
  }
}
