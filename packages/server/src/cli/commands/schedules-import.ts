// `punctual schedules import <file.jsonl>`: loads schedules from a JSON-lines file (one schedule per line:
// the body of `schedules put`'s PUT plus its `key`) through POST /v1/schedules/bulk, one batch of lines per
// request (each written whole, or not at all). A line that is not a JSON object, or repeats a key, is
// reported and skipped here; the service judges every other line. A progress line is drawn only on a
// terminal; the summary counts created, updated, unchanged and refused lines, each refusal with its line
// number and reason. It never retries a request, and stops at the first request the service refuses whole.

import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { ArgumentError, EXIT_OK, EXIT_REJECTED, type CliIo } from '../io.js';
import { ApiError, withClient, type ApiClient, type ClientArgs } from '../http-client.js';
import { printJson } from '../output.js';

/** Lines per request unless --batch says otherwise; at most the route's limit. */
export const IMPORT_BATCH = 1_000;
const IMPORT_BATCH_MAX = 5_000;

export interface SchedulesImportArgs extends ClientArgs {
  file: string;
  dryRun?: boolean | undefined;
  /** Lines per request (1 to 5000). */
  batch?: string | number | undefined;
  /** Draw a progress line (standard output is a terminal). */
  isTty?: boolean | undefined;
}

const OUTCOMES = ['created', 'updated', 'unchanged', 'refused'] as const;
type Outcome = (typeof OUTCOMES)[number];

interface Refusal {
  line: number;
  key: string | null;
  code: string;
  message: string;
}

interface BulkAnswer {
  items: { index: number; key: string | null; outcome: Outcome; error?: { code: string; message: string } }[];
}

export async function schedulesImport(args: SchedulesImportArgs, io: CliIo): Promise<number> {
  return withClient(args, io, async (client) => {
    const size = Number(args.batch ?? IMPORT_BATCH);
    if (!Number.isInteger(size) || size < 1 || size > IMPORT_BATCH_MAX)
      throw new ArgumentError(`--batch must be an integer from 1 to ${IMPORT_BATCH_MAX}`);
    const state = new ImportState(io, args.isTty === true && args.json !== true);
    const lines = createInterface({ input: await openFile(args.file), crlfDelay: Infinity });
    let batch: { line: number; item: Record<string, unknown> }[] = [];
    let n = 0;
    try {
      for await (const text of lines) {
        n++;
        const item = state.read(n, text);
        if (item !== undefined) batch.push({ line: n, item });
        if (batch.length >= size) {
          await send(client, batch, args.dryRun === true, state);
          batch = [];
        }
      }
      if (batch.length > 0) await send(client, batch, args.dryRun === true, state);
    } catch (e) {
      state.endProgress();
      if (!(e instanceof ApiError) || batch.length === 0) throw e;
      // The request was refused whole: nothing of it was written; what came before stays written.
      io.stderr(
        `punctual: ${e.code}: ${e.message} (lines ${batch[0]!.line}-${batch.at(-1)!.line} not written; ` +
          `lines before ${batch[0]!.line} were)\n`,
      );
      state.printSummary(args.json === true, args.dryRun === true);
      return EXIT_REJECTED;
    }
    state.endProgress();
    state.printSummary(args.json === true, args.dryRun === true);
    return state.totals.refused > 0 ? EXIT_REJECTED : EXIT_OK;
  });
}

async function openFile(path: string): Promise<NodeJS.ReadableStream> {
  const stream = createReadStream(path, { encoding: 'utf8' });
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', (e: NodeJS.ErrnoException) =>
      reject(new ArgumentError(`cannot read ${path}: ${e.code ?? e.message}`)),
    );
  });
  return stream;
}

async function send(
  client: ApiClient,
  batch: { line: number; item: Record<string, unknown> }[],
  dryRun: boolean,
  state: ImportState,
): Promise<void> {
  const res = await client.call<BulkAnswer>('POST', '/v1/schedules/bulk', {
    query: dryRun ? { dryRun: 'true' } : {},
    body: batch.map((b) => b.item),
  });
  for (const item of res.body.items) {
    const line = batch[item.index]!.line;
    if (item.outcome === 'refused') {
      const message = item.error?.message ?? 'refused';
      state.refuse({ line, key: item.key, code: item.error?.code ?? 'REFUSED', message });
    } else state.count(item.outcome);
  }
  state.progress();
}

/** The counts, the refusals and the keys seen so far (a key repeated in the file is refused here). */
class ImportState {
  readonly totals: Record<Outcome, number> = { created: 0, updated: 0, unchanged: 0, refused: 0 };
  readonly refusals: Refusal[] = [];
  readonly #keys = new Map<string, number>();
  #lines = 0;
  #drawn = false;

  constructor(
    private readonly io: CliIo,
    private readonly tty: boolean,
  ) {}

  /** The schedule on this line, or undefined for a blank line or one refused here. */
  read(line: number, text: string): Record<string, unknown> | undefined {
    this.#lines = line;
    if (text.trim() === '') return undefined;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      this.refuse({
        line,
        key: null,
        code: 'MALFORMED_JSON',
        message: `not valid JSON (${(e as Error).message})`,
      });
      return undefined;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      this.refuse({
        line,
        key: null,
        code: 'VALIDATION_FAILED',
        message: 'a line must hold one JSON object',
      });
      return undefined;
    }
    const key = (value as { key?: unknown }).key;
    if (typeof key === 'string') {
      const first = this.#keys.get(key);
      if (first !== undefined) {
        this.refuse({
          line,
          key,
          code: 'BULK_KEY_DUPLICATE',
          message: `key "${key}" was given before, at line ${first}`,
        });
        return undefined;
      }
      this.#keys.set(key, line);
    }
    return value as Record<string, unknown>;
  }

  count(outcome: Outcome): void {
    this.totals[outcome]++;
  }

  refuse(r: Refusal): void {
    this.totals.refused++;
    this.refusals.push(r);
  }

  progress(): void {
    if (!this.tty) return;
    this.io.stdout(`\r\x1b[Kline ${this.#lines}: ${this.#counts()}`);
    this.#drawn = true;
  }

  endProgress(): void {
    if (this.#drawn) this.io.stdout('\r\x1b[K');
    this.#drawn = false;
  }

  printSummary(json: boolean, dryRun: boolean): void {
    const refusals = [...this.refusals].sort((a, b) => a.line - b.line);
    if (json) {
      printJson(this.io, { totals: this.totals, dryRun, refused: refusals });
      return;
    }
    const note = dryRun ? ' (dry run: nothing written)' : '';
    this.io.stdout(`${this.#counts()}${note}\n`);
    for (const r of refusals) this.io.stdout(`line ${r.line}: ${r.code}: ${r.message}\n`);
  }

  #counts(): string {
    return OUTCOMES.map((o) => `${o} ${this.totals[o]}`).join(', ');
  }
}
