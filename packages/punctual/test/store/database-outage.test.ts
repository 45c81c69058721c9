// Database outages are read from PostgreSQL SQLSTATEs, Node's socket codes and node-postgres's messages,
// also through `cause`: unreachable, interrupted (cut mid-statement or mid-transaction) or read-only (a
// standby). Nothing else is taken for one.

import { describe, expect, it } from 'vitest';
import { databaseOutage } from '../../src/store/database-outage.js';

const err = (code: string, cause?: unknown) => Object.assign(new Error(code), { code, cause });

describe('databaseOutage', () => {
  it('tells a read-only server, a cut connection and an unreachable one apart', () => {
    expect(databaseOutage(err('25006'))).toBe('readOnly');
    for (const code of ['57P01', '57P02', '08006', 'ECONNRESET', 'EPIPE'])
      expect(databaseOutage(err(code)), code).toBe('interrupted');
    for (const code of ['57P03', '08001', 'ECONNREFUSED', 'ENOTFOUND'])
      expect(databaseOutage(err(code)), code).toBe('unreachable');
    expect(databaseOutage(new Error('Connection terminated unexpectedly'))).toBe('interrupted');
    expect(databaseOutage(new Error('timeout exceeded when trying to connect'))).toBe('unreachable');
    expect(databaseOutage(new Error('Connection terminated due to connection timeout'))).toBe('unreachable');
    expect(databaseOutage(new Error('wrapped', { cause: err('25006') }))).toBe('readOnly');
  });

  it('takes nothing else for an outage', () => {
    for (const e of [
      err('40001'),
      err('23505'),
      err('SQLITE_BUSY'),
      err('53100'),
      new Error('x'),
      null,
      '25006',
    ])
      expect(databaseOutage(e)).toBeNull();
  });
});
