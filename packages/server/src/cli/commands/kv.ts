// `punctual kv ls|get|put|rm`: a tenant's key-value store (the one its scripts read and write with ctx.kv)
// through a running service's HTTP API (--url, --key). It owns turning options into requests and answers
// into lines; with --json it prints the API's JSON as it came. Judging keys and values is the service's work.

import { readFileSync } from 'node:fs';
import { ArgumentError, EXIT_OK, type CliIo } from '../io.js';
import { seg, withClient, type ClientArgs } from '../http-client.js';
import { printJson, table } from '../output.js';

export interface KvEntryJson {
  key: string;
  value: unknown;
  updatedAt: string;
}

export interface KvListArgs extends ClientArgs {
  /** Only keys starting with this text. */
  prefix?: string | undefined;
  limit?: string | number | undefined;
  cursor?: string | undefined;
}

export interface KvKeyArgs extends ClientArgs {
  key: string;
}

export interface KvPutArgs extends KvKeyArgs {
  /** The value as JSON text (the positional argument). */
  value?: string | undefined;
  /** A file holding the JSON value, instead of the argument. */
  file?: string | undefined;
  /** Reads --file. Default: fs. */
  readFile?: ((path: string) => string) | undefined;
}

/** A value on one line, cut to `max` characters for tables. */
function short(value: unknown, max = 60): string {
  const text = JSON.stringify(value) ?? 'null';
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The JSON value `kv put` sends. */
export function kvValue(args: KvPutArgs): unknown {
  if ((args.value === undefined) === (args.file === undefined)) {
    throw new ArgumentError('give the value once: as the JSON argument or with --file FILE');
  }
  let text = args.value;
  if (args.file !== undefined) {
    try {
      text = (args.readFile ?? ((p: string) => readFileSync(p, 'utf8')))(args.file);
    } catch (e) {
      throw new ArgumentError(`--file: cannot read ${args.file}: ${(e as Error).message}`);
    }
  }
  try {
    return JSON.parse(text as string) as unknown;
  } catch (e) {
    throw new ArgumentError(
      `the value must be JSON, such as 42, '"text"' or '{"a": 1}' (${(e as Error).message})`,
    );
  }
}

export async function kvList(args: KvListArgs, io: CliIo): Promise<number> {
  return withClient(args, io, async (api) => {
    const { body } = await api.call<{ items: KvEntryJson[]; nextCursor: string | null }>('GET', '/v1/kv', {
      query: { prefix: args.prefix, limit: args.limit, cursor: args.cursor },
    });
    if (args.json === true) {
      printJson(io, body);
      return EXIT_OK;
    }
    io.stdout(
      table(
        ['KEY', 'UPDATED', 'VALUE'],
        body.items.map((e) => [e.key, e.updatedAt, short(e.value)]),
      ),
    );
    if (body.nextCursor !== null) io.stdout(`(more: --cursor ${body.nextCursor})\n`);
    return EXIT_OK;
  });
}

export async function kvGet(args: KvKeyArgs, io: CliIo): Promise<number> {
  return withClient(args, io, async (api) => {
    const { body } = await api.call<KvEntryJson>('GET', `/v1/kv/${seg(args.key)}`);
    // People get the value itself (pretty JSON), so it can be piped; --json gets the entry.
    if (args.json === true) printJson(io, body);
    else io.stdout(`${JSON.stringify(body.value, null, 2)}\n`);
    return EXIT_OK;
  });
}

export async function kvPut(args: KvPutArgs, io: CliIo): Promise<number> {
  return withClient(args, io, async (api) => {
    const value = kvValue(args);
    const res = await api.call<KvEntryJson>('PUT', `/v1/kv/${seg(args.key)}`, { body: value });
    if (args.json === true) printJson(io, res.body);
    else io.stdout(`punctual: ${res.status === 201 ? 'created' : 'replaced'} key ${res.body.key}\n`);
    return EXIT_OK;
  });
}

export async function kvRemove(args: KvKeyArgs, io: CliIo): Promise<number> {
  return withClient(args, io, async (api) => {
    await api.call('DELETE', `/v1/kv/${seg(args.key)}`);
    if (args.json === true) printJson(io, { key: args.key, deleted: true });
    else io.stdout(`punctual: deleted key ${args.key}\n`);
    return EXIT_OK;
  });
}
