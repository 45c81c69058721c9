// Storage faults are read from driver error codes (SQLite's, PostgreSQL's SQLSTATE), also through `cause`,
// and nothing else is taken for one.

import { describe, expect, it } from 'vitest';
import { storageError, storageFault } from '../../src/store/storage-faults.js';

const err = (code: string, cause?: unknown) => Object.assign(new Error(code), { code, cause });

describe('storageFault', () => {
  it('reads damage and a full disk from SQLite and PostgreSQL codes, and from its own codes', () => {
    for (const code of ['SQLITE_CORRUPT', 'SQLITE_CORRUPT_INDEX', 'SQLITE_NOTADB', 'XX001', 'XX002'])
      expect(storageFault(err(code)), code).toBe('corrupt');
    for (const code of ['SQLITE_FULL', '53100']) expect(storageFault(err(code)), code).toBe('full');
    expect(storageFault(storageError('full'))).toBe('full');
    expect(storageFault(storageError('corrupt'))).toBe('corrupt');
    expect(storageFault(new Error('wrapped', { cause: err('SQLITE_FULL') }))).toBe('full');
  });

  it('takes nothing else for a storage fault', () => {
    for (const e of [
      err('SQLITE_BUSY'),
      err('SQLITE_CONSTRAINT'),
      err('23505'),
      err('53200'),
      new Error('x'),
      null,
      'SQLITE_FULL',
    ])
      expect(storageFault(e)).toBeNull();
  });
});
