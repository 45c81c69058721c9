// The request body of `punctual schedules put` (and its --dry-run): the options and a --file turned into the
// PUT body, the options overriding the file field by field. It owns refusing what the service could never
// run here (a handler target) and malformed options (ARGUMENT_INVALID); judging the schedule is the
// service's work, never this file's. No request is made here.

import { readFileSync } from 'node:fs';
import { ArgumentError } from './io.js';
import { parseJsonOption } from './json-option.js';
import type { ScheduleKeyArgs } from './commands/schedules.js';

export interface SchedulesPutArgs extends ScheduleKeyArgs {
  spec?: string | undefined;
  tz?: string | undefined;
  webhook?: string | undefined;
  /** Refused with NO_HANDLERS: a `punctual serve` process has no handlers (kept so the refusal says why). */
  handler?: string | undefined;
  /** A file whose text is the source of a script target. */
  script?: string | undefined;
  /** JSON text. */
  payload?: string | undefined;
  /** A JSON file with the body (`spec`, `target`, `policies`, ...); the options above override its fields. */
  file?: string | undefined;
  /** Free text kept beside the generated description. */
  summary?: string | undefined;
  /** Labels, each `key=value`; they replace the labels of --file. */
  label?: string[] | undefined;
  /** The message id template of the webhook or broker target (`{key}-{scheduledForSeconds}`). */
  idTemplate?: string | undefined;
  /** DST choice: a local time in a gap, `shift` or `skip` (the service judges the value). */
  dstGap?: string | undefined;
  /** DST choice: a repeated local time, `first` or `both`. */
  dstRepeat?: string | undefined;
  /** Each occurrence must succeed within this duration of its start (`none`: no expectation). */
  expectSuccessWithin?: string | undefined;
  /** Create the schedule paused (ignored when it exists: use pause / resume). */
  paused?: boolean | undefined;
  /** The version the update expects (If-Match). */
  ifMatch?: string | number | undefined;
  /** Reads --file and --script. Default: fs. */
  readFile?: ((path: string) => string) | undefined;
}

/** Why the service CLI refuses a handler target. */
export const NO_HANDLERS =
  'a punctual serve process has no in-process handlers, so a "handler" target could never run; ' +
  'use --webhook URL, --script FILE, or a broker or script target in --file ' +
  '(handler targets are for programs that embed the library and call scheduler.handle)';

function readText(args: SchedulesPutArgs, option: '--file' | '--script', path: string): string {
  try {
    return (args.readFile ?? ((p: string) => readFileSync(p, 'utf8')))(path);
  } catch (e) {
    throw new ArgumentError(`${option}: cannot read ${path}: ${(e as Error).message}`);
  }
}

/** The request body `schedules put` sends. */
export function putBody(args: SchedulesPutArgs): Record<string, unknown> {
  let body: Record<string, unknown> = {};
  if (args.file !== undefined) {
    const text = readText(args, '--file', args.file);
    const parsed = parseJsonOption('--file', text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new ArgumentError(
        `--file must hold a JSON object such as {"spec": "0 9 * * *", "target": {...}}`,
      );
    }
    body = { ...(parsed as Record<string, unknown>) };
    if ('key' in body) {
      if (body.key !== args.key) {
        throw new ArgumentError(
          `--file names the key "${String(body.key)}" but the command says "${args.key}"`,
        );
      }
      delete body.key;
    }
  }
  if (args.handler !== undefined) throw new ArgumentError(NO_HANDLERS);
  if (args.webhook !== undefined && args.script !== undefined) {
    throw new ArgumentError('give one target: --webhook or --script, not both');
  }
  if (args.spec !== undefined) body.spec = args.spec;
  if (args.tz !== undefined) body.tz = args.tz;
  if (args.webhook !== undefined) body.target = { webhook: { url: args.webhook } };
  if (args.script !== undefined) {
    const source = readText(args, '--script', args.script);
    // Keep the script settings of --file (timeoutMs, memoryMb); the file's text is the source.
    const fromFile = (body.target as { script?: unknown } | undefined)?.script;
    const settings = typeof fromFile === 'object' && fromFile !== null ? fromFile : {};
    body.target = { script: { ...settings, source } };
  }
  if (args.payload !== undefined) body.payload = parseJsonOption('--payload', args.payload);
  if (args.summary !== undefined) body.summary = args.summary;
  if (args.label !== undefined && args.label.length > 0) body.labels = parseLabelOptions(args.label);
  if (args.dstGap !== undefined || args.dstRepeat !== undefined) {
    // Over the dst of --file, part by part.
    const fromFile = typeof body.dst === 'object' && body.dst !== null ? body.dst : {};
    body.dst = {
      ...fromFile,
      ...(args.dstGap === undefined ? {} : { gap: args.dstGap }),
      ...(args.dstRepeat === undefined ? {} : { repeat: args.dstRepeat }),
    };
  }
  if (args.expectSuccessWithin !== undefined) {
    body.expect = args.expectSuccessWithin === 'none' ? null : { successWithin: args.expectSuccessWithin };
  }
  if (args.paused === true) body.state = 'paused';
  if (body.spec === undefined) throw new ArgumentError('--spec (or "spec" in --file) is required');
  if (body.target === undefined) {
    throw new ArgumentError('a target is required: --webhook URL, --script FILE, or "target" in --file');
  }
  if (typeof body.target === 'object' && body.target !== null && 'handler' in body.target) {
    throw new ArgumentError(NO_HANDLERS);
  }
  if (args.idTemplate !== undefined) body.target = withIdTemplate(body.target, args.idTemplate);
  return body;
}

/** The target with its idTemplate set: webhook and broker targets carry one; a script target has no message. */
function withIdTemplate(target: unknown, idTemplate: string): Record<string, unknown> {
  const t = target as Record<string, unknown>;
  const [kind] = Object.keys(t);
  const inner = kind === undefined ? undefined : t[kind];
  if (kind === undefined || kind === 'script' || typeof inner !== 'object' || inner === null) {
    throw new ArgumentError('--id-template needs a webhook or broker target (--webhook, or one in --file)');
  }
  return { [kind]: { ...(inner as Record<string, unknown>), idTemplate } };
}

/** `--label k=v` options as a labels object; a key given twice is refused. */
export function parseLabelOptions(options: readonly string[]): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const text of options) {
    const i = text.indexOf('=');
    if (i <= 0) throw new ArgumentError(`--label must be key=value, such as jobType=email (got "${text}")`);
    const key = text.slice(0, i);
    if (key in labels) throw new ArgumentError(`--label ${key} is given twice`);
    labels[key] = text.slice(i + 1);
  }
  return labels;
}
