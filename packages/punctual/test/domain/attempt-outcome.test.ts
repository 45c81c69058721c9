// How an attempt is recorded: the delivery's outcome and the next state it led to decide it (a retry that
// has no attempts left is recorded as failed, a timeout as timeout whatever follows).

import { describe, expect, it } from 'vitest';
import { attemptOutcome, type NextState } from '../../src/domain/outcome.js';

const again: NextState = { state: 'scheduled', reason: 'retry', dueAt: 1, error: null };
const dead: NextState = { state: 'dead', error: { code: 'ATTEMPT_FAILED', message: 'x' } };
const done: NextState = { state: 'succeeded', result: null };

describe('attemptOutcome', () => {
  it('names each outcome', () => {
    expect(attemptOutcome({ type: 'ok' }, done)).toBe('succeeded');
    expect(attemptOutcome({ type: 'release', afterMs: 1, error: dead.error }, again)).toBe('released');
    expect(attemptOutcome({ type: 'checkAgain', at: 5 }, again)).toBe('checkAgain');
    expect(attemptOutcome({ type: 'fail', error: dead.error }, dead)).toBe('failed');
  });

  it('records a retry as retry while attempts remain and as failed when it ends the run', () => {
    const error = { code: 'ATTEMPT_FAILED', message: 'boom' };
    expect(attemptOutcome({ type: 'retry', error }, again)).toBe('retry');
    expect(attemptOutcome({ type: 'retry', error }, dead)).toBe('failed');
  });

  it('records a timeout as timeout, whether or not the run is retried', () => {
    const error = { code: 'ATTEMPT_TIMEOUT', message: 'took too long' };
    expect(attemptOutcome({ type: 'retry', error }, again)).toBe('timeout');
    expect(attemptOutcome({ type: 'retry', error }, dead)).toBe('timeout');
  });
});
