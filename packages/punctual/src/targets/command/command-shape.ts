// The shape of a command target, `{ "command": { argv, shell?, cwd?, env?, stdin?, timeoutMs? } }`: a program
// run on the service's machine (docs/commands.md). This module owns its validation and JSON Schema. Whether
// the operator enabled commands, and for which tenants, is the command driver's check at save time. Pure: it
// must never perform I/O or start a process (the domain imports it).

import { isPlainObject, shapeInvalid, type TargetShape } from '../target-shape.js';

export interface CommandTarget {
  command: {
    /** The program and its arguments; with `shell`, exactly one string: the command line for /bin/sh -c. */
    argv: string[];
    shell?: boolean;
    /** Absolute working directory; default: the service's. */
    cwd?: string;
    /** Extra environment variables, over the minimal environment the driver gives every command. */
    env?: Record<string, string>;
    /** Text written to the command's standard input (then closed). */
    stdin?: string;
    /** Wall time before the whole process group is killed; default 60 s, at most 24 h. */
    timeoutMs?: number;
  };
}

export const COMMAND_ARGV_MAX = 256;
export const COMMAND_ARG_MAX_CHARS = 32_768;
export const COMMAND_PATH_MAX_CHARS = 4096;
export const COMMAND_ENV_MAX = 64;
export const COMMAND_ENV_VALUE_MAX_CHARS = 32_768;
export const COMMAND_STDIN_MAX_CHARS = 1_048_576;
export const COMMAND_TIMEOUT_MIN_MS = 100;
export const COMMAND_TIMEOUT_MAX_MS = 86_400_000;
/** Environment variable names: a letter or _ then letters, digits and _ (what a shell can refer to). */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,255}$/;
const FIELDS = ['argv', 'shell', 'cwd', 'env', 'stdin', 'timeoutMs'];

const invalid = (field: string, why: string) => shapeInvalid('command', field, why);

/** A string the kernel can take as an argument: no NUL character, at most `max` characters. */
function text(field: string, v: unknown, max: number): string {
  if (typeof v !== 'string') throw invalid(field, 'must be a string');
  if (v.length > max) throw invalid(field, `must be at most ${max} characters`);
  if (v.includes('\0')) throw invalid(field, 'must not contain a NUL character');
  return v;
}

function parseArgv(v: unknown, shell: boolean): string[] {
  if (!Array.isArray(v) || v.length === 0 || v.length > COMMAND_ARGV_MAX) {
    throw invalid('argv', `must be an array of 1 to ${COMMAND_ARGV_MAX} strings`);
  }
  const argv = v.map((a, i) => text(`argv.${i}`, a, COMMAND_ARG_MAX_CHARS));
  if (shell) {
    if (argv.length !== 1) {
      throw invalid('argv', 'must be exactly one string, the command line, when shell is true');
    }
    if (argv[0]!.trim() === '') throw invalid('argv.0', 'must be a non-empty command line');
  } else if (!argv[0]!.startsWith('/')) {
    throw invalid(
      'argv.0',
      'must be an absolute path to the program (such as /usr/bin/env), or set shell: true for a command line',
    );
  }
  return argv;
}

function parseEnv(v: unknown): Record<string, string> {
  if (!isPlainObject(v)) throw invalid('env', 'must be an object of variable names to string values');
  const entries = Object.entries(v);
  if (entries.length > COMMAND_ENV_MAX) throw invalid('env', `must have at most ${COMMAND_ENV_MAX} entries`);
  const env: Record<string, string> = {};
  for (const [name, value] of entries) {
    if (!ENV_NAME.test(name)) {
      throw invalid(`env.${name}`, 'is not a variable name (a letter or _, then letters, digits or _)');
    }
    if (name.toUpperCase().startsWith('PUNCTUAL_')) {
      throw invalid(`env.${name}`, 'is reserved: the command driver sets the PUNCTUAL_ variables of the run');
    }
    env[name] = text(`env.${name}`, value, COMMAND_ENV_VALUE_MAX_CHARS);
  }
  return env;
}

/**
 * Validates a command target: argv of 1 to 256 strings whose first is an absolute path (or, with
 * `shell: true`, exactly one command line), an absolute cwd, at most 64 variables whose names are letters,
 * digits and _ (not starting with a digit, not PUNCTUAL_...), text
 * stdin up to 1 MiB, and a timeout from 100 ms to 24 h. No string may hold a NUL character.
 */
function parseCommand(value: unknown): CommandTarget['command'] {
  if (!isPlainObject(value)) {
    throw invalid('', 'must be an object such as { "argv": ["/usr/bin/env", "date"] }');
  }
  for (const k of Object.keys(value)) {
    if (!FIELDS.includes(k)) throw invalid(k, `is not a command field (${FIELDS.join(', ')})`);
  }
  if (value.shell !== undefined && typeof value.shell !== 'boolean') {
    throw invalid('shell', 'must be true or false');
  }
  const shell = value.shell === true;
  const out: CommandTarget['command'] = { argv: parseArgv(value.argv, shell) };
  if (value.shell !== undefined) out.shell = value.shell as boolean;
  if (value.cwd !== undefined) {
    const cwd = text('cwd', value.cwd, COMMAND_PATH_MAX_CHARS);
    if (!cwd.startsWith('/')) throw invalid('cwd', 'must be an absolute path');
    out.cwd = cwd;
  }
  if (value.env !== undefined) out.env = parseEnv(value.env);
  if (value.stdin !== undefined) out.stdin = text('stdin', value.stdin, COMMAND_STDIN_MAX_CHARS);
  if (value.timeoutMs !== undefined) {
    const t = value.timeoutMs;
    if (
      typeof t !== 'number' ||
      !Number.isInteger(t) ||
      t < COMMAND_TIMEOUT_MIN_MS ||
      t > COMMAND_TIMEOUT_MAX_MS
    ) {
      throw invalid(
        'timeoutMs',
        `must be an integer between ${COMMAND_TIMEOUT_MIN_MS} and ${COMMAND_TIMEOUT_MAX_MS} (24 h)`,
      );
    }
    out.timeoutMs = t;
  }
  return out;
}

export const commandShape: TargetShape<'command', CommandTarget['command']> = {
  kind: 'command',
  parse: parseCommand,
  optIn: true,
  jsonSchema: {
    type: 'object',
    description:
      "a program run on the service's machine, as the service's user; only when the operator enabled commands for the tenant (docs/commands.md)",
    properties: {
      argv: {
        type: 'array',
        items: { type: 'string' },
        description:
          'the program (an absolute path) and its arguments; with shell: true, exactly one string: the command line for /bin/sh -c',
        example: ['/usr/bin/env', 'date'],
      },
      shell: {
        type: 'boolean',
        description: 'run argv[0] as a command line with /bin/sh -c (default false)',
      },
      cwd: { type: 'string', description: "absolute working directory (default: the service's)" },
      env: {
        type: 'object',
        additionalProperties: { type: 'string' },
        description: 'extra environment variables, over a minimal environment (PATH, HOME, LANG...)',
      },
      stdin: { type: 'string', description: "text written to the command's standard input" },
      timeoutMs: {
        type: 'integer',
        description: 'wall time before the whole process group is killed (default 60000, at most 86400000)',
      },
    },
    required: ['argv'],
    additionalProperties: false,
  },
};
