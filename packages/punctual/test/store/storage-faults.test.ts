// Storage faults are read from driver error codes (SQLite's, PostgreSQL's SQLSTATE), also through `cause`,
// and nothing else is taken for one.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

  it("reads node:sqlite's numeric result codes, extended ones included", () => {
    const nodeSqlite = (errcode: number) =>
      Object.assign(new Error('x'), { code: 'ERR_SQLITE_ERROR', errcode, errstr: 'x' });
    expect(storageFault(nodeSqlite(11))).toBe('corrupt'); // SQLITE_CORRUPT
    expect(storageFault(nodeSqlite(267))).toBe('corrupt'); // SQLITE_CORRUPT_VTAB
    expect(storageFault(nodeSqlite(26))).toBe('corrupt'); // SQLITE_NOTADB
    expect(storageFault(nodeSqlite(13))).toBe('full'); // SQLITE_FULL
    expect(storageFault(nodeSqlite(5))).toBeNull(); // SQLITE_BUSY
    expect(storageFault(nodeSqlite(19))).toBeNull(); // SQLITE_CONSTRAINT
  });

  it('takes a file that is not a database opened with node:sqlite for damage', async () => {
    const sqlite = await import('node:sqlite'); // in every supported Node (22.15 and later)
    const dir = mkdtempSync(join(tmpdir(), 'punctual-faults-'));
    const path = join(dir, 'not-a-database.db');
    writeFileSync(path, 'this is text, not a database: '.repeat(40));
    let thrown: unknown;
    try {
      new sqlite.DatabaseSync(path).prepare('SELECT * FROM sqlite_master').all();
    } catch (e) {
      thrown = e;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(storageFault(thrown)).toBe('corrupt');
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
