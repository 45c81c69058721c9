// The API's view of a recorded error: details kept by the library come out (a script's logs and stack, a
// target's own fields), cut to the documented caps; a stack that is not a script's never does.

import { describe, expect, it } from 'vitest';
import {
  ERROR_LOGS_MAX_CHARS,
  ERROR_OTHER_DETAILS_MAX_CHARS,
  ERROR_OUTPUT_MAX_CHARS,
  ERROR_STACK_MAX_CHARS,
  errorView,
} from '../../src/http/error-details-view.js';

describe('errorView', () => {
  it('keeps null, and leaves details out when the library kept none', () => {
    expect(errorView(null)).toBeNull();
    expect(errorView({ code: 'WEBHOOK_TIMEOUT', message: 'no answer' })).toEqual({
      code: 'WEBHOOK_TIMEOUT',
      message: 'no answer',
    });
  });

  it("shows a script's logs and stack, and other fields the library kept", () => {
    const e = {
      code: 'SCRIPT_FAILED',
      message: 'Error: boom',
      stack: 'Error: boom\n    at default (script.js:3:13)',
      details: { logs: ['a', 'b'], status: 502 },
    };
    expect(errorView(e)).toEqual({
      code: 'SCRIPT_FAILED',
      message: 'Error: boom',
      details: { logs: ['a', 'b'], status: 502, stack: e.stack },
    });
  });

  it("shows the end of a command's stdout and stderr, each cut to its cap with a count of the rest", () => {
    const long = `${'x'.repeat(50_000)}the error at the end`;
    const view = errorView({
      code: 'COMMAND_FAILED',
      message: '/bin/backup exited with code 2',
      details: { exitCode: 2, signal: null, stdout: long, stderr: 'disk full\n' },
    } as never);
    const shown = view!.details!.stdout as string;
    expect(shown.endsWith('the error at the end')).toBe(true);
    expect(shown).toMatch(
      new RegExp(`^\\[${long.length - ERROR_OUTPUT_MAX_CHARS} earlier characters not shown\\]`),
    );
    expect(shown.length).toBeLessThan(ERROR_OUTPUT_MAX_CHARS + 60);
    expect(view!.details).toMatchObject({ exitCode: 2, signal: null, stderr: 'disk full\n' });
  });

  it("never shows a stack that is not a script's", () => {
    const view = errorView({
      code: 'ATTEMPT_FAILED',
      message: 'x',
      stack: 'Error: x\n    at /srv/app.js:1:1',
    });
    expect(view).toEqual({ code: 'ATTEMPT_FAILED', message: 'x' });
    expect(errorView({ message: 'x', stack: 'Error: x' })).toEqual({ message: 'x' });
  });

  it('cuts the logs at the cap and counts the lines left out', () => {
    const line = 'x'.repeat(1000);
    const logs = Array.from({ length: 40 }, () => line);
    const view = errorView({ code: 'SCRIPT_FAILED', message: 'm', details: { logs } } as never);
    const shown = view?.details?.logs ?? [];
    const fit = Math.floor(ERROR_LOGS_MAX_CHARS / 1000);
    expect(shown).toHaveLength(fit + 1);
    expect(shown.slice(0, fit).every((l) => l === line)).toBe(true);
    expect(shown[fit]).toBe(
      `[${40 - fit} more log lines not shown: over the API's limit of ${ERROR_LOGS_MAX_CHARS} characters]`,
    );
  });

  it('cuts a long stack and replaces oversized other details by their size', () => {
    const stack = 's'.repeat(ERROR_STACK_MAX_CHARS + 10);
    const big = 'b'.repeat(ERROR_OTHER_DETAILS_MAX_CHARS);
    const view = errorView({ code: 'SCRIPT_FAILED', message: 'm', stack, details: { body: big } } as never);
    expect(view?.details?.stack).toBe(`${'s'.repeat(ERROR_STACK_MAX_CHARS)}… [10 more characters]`);
    expect(view?.details?.omitted).toBe(JSON.stringify({ body: big }).length);
    expect(view?.details).not.toHaveProperty('body');
  });
});
