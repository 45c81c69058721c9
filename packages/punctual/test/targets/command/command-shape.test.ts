// The command target's shape (targets/command/command-shape.ts), through parseTarget as every save reaches
// it: what is accepted and normalised, and each bad input refused with its code and the field it names.

import { describe, expect, it } from 'vitest';
import { parseTarget, TARGET_KINDS } from '../../../src/domain/target.js';
import { PunctualError } from '../../../src/errors.js';

function refusal(command: unknown): { code: string; field: unknown; message: string } {
  try {
    parseTarget({ command });
  } catch (e) {
    if (!(e instanceof PunctualError)) throw e;
    return { code: e.code, field: e.details?.field, message: e.message };
  }
  throw new Error(`accepted ${JSON.stringify(command)}`);
}

describe('command target shape', () => {
  it('is a target kind', () => {
    expect(TARGET_KINDS).toContain('command');
  });

  it('accepts a program with arguments and every optional field', () => {
    const command = {
      argv: ['/usr/bin/env', 'date', '-u'],
      shell: false,
      cwd: '/tmp',
      env: { REPORT_DAY: 'monday', _X1: '' },
      stdin: 'line one\nline two\n',
      timeoutMs: 86_400_000,
    };
    expect(parseTarget({ command })).toEqual({ command });
  });

  it('accepts one command line with shell: true, which need not start with a path', () => {
    expect(parseTarget({ command: { argv: ['cd /tmp && ls | wc -l'], shell: true } })).toEqual({
      command: { argv: ['cd /tmp && ls | wc -l'], shell: true },
    });
  });

  it.each([
    ['not an object', ['/bin/true'], 'target.command'],
    ['an unknown field', { argv: ['/bin/true'], user: 'root' }, 'target.command.user'],
    ['no argv', {}, 'target.command.argv'],
    ['argv not an array', { argv: '/bin/true' }, 'target.command.argv'],
    ['an empty argv', { argv: [] }, 'target.command.argv'],
    [
      '257 arguments',
      { argv: ['/bin/echo', ...Array.from({ length: 256 }, () => 'x')] },
      'target.command.argv',
    ],
    ['an argument that is not a string', { argv: ['/bin/echo', 3] }, 'target.command.argv.1'],
    ['an argument with a NUL', { argv: ['/bin/echo', 'a\0b'] }, 'target.command.argv.1'],
    ['an argument of 32769 characters', { argv: ['/bin/echo', 'x'.repeat(32_769)] }, 'target.command.argv.1'],
    ['a relative program', { argv: ['ls', '-l'] }, 'target.command.argv.0'],
    ['a program found on PATH', { argv: ['./run.sh'] }, 'target.command.argv.0'],
    ['shell with two strings', { argv: ['ls', '-l'], shell: true }, 'target.command.argv'],
    ['shell with a blank line', { argv: ['  '], shell: true }, 'target.command.argv.0'],
    ['shell not a boolean', { argv: ['/bin/true'], shell: 'yes' }, 'target.command.shell'],
    ['a relative cwd', { argv: ['/bin/true'], cwd: 'tmp' }, 'target.command.cwd'],
    ['a cwd that is not a string', { argv: ['/bin/true'], cwd: 1 }, 'target.command.cwd'],
    ['env as a list', { argv: ['/bin/true'], env: ['A=1'] }, 'target.command.env'],
    ['a variable name with =', { argv: ['/bin/true'], env: { 'A=B': '1' } }, 'target.command.env.A=B'],
    [
      'a variable name starting with a digit',
      { argv: ['/bin/true'], env: { '1A': '1' } },
      'target.command.env.1A',
    ],
    [
      'a reserved PUNCTUAL_ name',
      { argv: ['/bin/true'], env: { PUNCTUAL_RUN_ID: 'x' } },
      'target.command.env.PUNCTUAL_RUN_ID',
    ],
    ['a value that is not a string', { argv: ['/bin/true'], env: { A: 1 } }, 'target.command.env.A'],
    [
      '65 variables',
      { argv: ['/bin/true'], env: Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`V${i}`, ''])) },
      'target.command.env',
    ],
    ['stdin that is not text', { argv: ['/bin/cat'], stdin: { a: 1 } }, 'target.command.stdin'],
    ['stdin over 1 MiB', { argv: ['/bin/cat'], stdin: 'x'.repeat(1_048_577) }, 'target.command.stdin'],
    ['a timeout under 100 ms', { argv: ['/bin/true'], timeoutMs: 99 }, 'target.command.timeoutMs'],
    ['a timeout over 24 h', { argv: ['/bin/true'], timeoutMs: 86_400_001 }, 'target.command.timeoutMs'],
    ['a fractional timeout', { argv: ['/bin/true'], timeoutMs: 1000.5 }, 'target.command.timeoutMs'],
  ])('refuses %s with SCHEDULE_INVALID naming the field', (_name, command, field) => {
    const e = refusal(command);
    expect(e.code).toBe('SCHEDULE_INVALID');
    expect(e.field).toBe(field);
    expect(e.message.startsWith(field)).toBe(true);
  });

  it('explains how to run a command line when the program is not a path', () => {
    expect(refusal({ argv: ['ls'] }).message).toContain('shell: true');
  });
});
