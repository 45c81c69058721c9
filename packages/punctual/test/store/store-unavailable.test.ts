// Which store errors mean "the database does not answer" (wait and retry) and which do not.

import { describe, expect, it } from 'vitest';
import { PunctualError } from '../../src/errors.js';
import { isStoreUnavailable } from '../../src/store/store-unavailable.js';

const coded = (code: string, message = 'x'): Error => Object.assign(new Error(message), { code });

describe('isStoreUnavailable', () => {
  it('matches refused, lost and shutting-down connections, also when wrapped', () => {
    for (const e of [
      coded('ECONNREFUSED'),
      coded('ECONNRESET'),
      coded('ETIMEDOUT'),
      coded('57P01', 'terminating connection due to administrator command'),
      coded('57P03', 'the database system is starting up'),
      coded('25006', 'cannot execute UPDATE in a read-only transaction'),
      coded('08006'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new Error('wrapped', { cause: coded('ECONNREFUSED') }),
      new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')], ''),
    ]) {
      expect(isStoreUnavailable(e), String(e)).toBe(true);
    }
  });

  it('does not match a refusal of the request, a bug, or a closed store', () => {
    for (const e of [
      coded('23505', 'duplicate key value violates unique constraint'),
      coded('42P01', 'relation does not exist'),
      coded('40001', 'could not serialize access'),
      new TypeError('x is undefined'),
      new PunctualError('STORE_CLOSED', 'the store was closed'),
      new PunctualError('SCHEDULE_NOT_FOUND', 'no such schedule'),
      null,
      'ECONNREFUSED',
    ]) {
      expect(isStoreUnavailable(e), String(e)).toBe(false);
    }
  });
});
