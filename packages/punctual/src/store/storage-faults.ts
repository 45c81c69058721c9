// What a database error says about the storage under it: the file or its pages are damaged (`corrupt`), or
// the disk is full (`full`). Knows the codes of SQLite (better-sqlite3's `SQLITE_*` names, node:sqlite's
// numeric `errcode`) and PostgreSQL (SQLSTATE), never imports a driver, and never decides what to do about
// it: the service does.

import { PunctualError } from '../errors.js';

export type StorageFault = 'corrupt' | 'full';

const SQLITE_CORRUPT = /^SQLITE_(CORRUPT(_\w+)?|NOTADB)$/;
const SQLITE_FULL = /^SQLITE_FULL$/;
/** SQLite's primary result codes (node:sqlite reports them, maybe extended, as `errcode`). */
const SQLITE_CODE_CORRUPT = new Set([11, 26]); // SQLITE_CORRUPT, SQLITE_NOTADB
const SQLITE_CODE_FULL = 13;
/** PostgreSQL: disk_full; data_corrupted and index_corrupted. */
const PG_FULL = new Set(['53100']);
const PG_CORRUPT = new Set(['XX001', 'XX002']);

/** The storage fault an error (or its cause) reports, or null for any other error. */
export function storageFault(e: unknown): StorageFault | null {
  for (let err = e, depth = 0; err !== null && typeof err === 'object' && depth < 5; depth++) {
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (code === 'STORAGE_CORRUPT' || SQLITE_CORRUPT.test(code) || PG_CORRUPT.has(code)) return 'corrupt';
      if (code === 'STORAGE_FULL' || SQLITE_FULL.test(code) || PG_FULL.has(code)) return 'full';
    }
    const errcode = (err as { errcode?: unknown }).errcode;
    if (typeof errcode === 'number') {
      const primary = errcode & 0xff; // an extended code keeps its primary code in the low byte
      if (SQLITE_CODE_CORRUPT.has(primary)) return 'corrupt';
      if (primary === SQLITE_CODE_FULL) return 'full';
    }
    err = (err as { cause?: unknown }).cause;
  }
  return null;
}

/** The coded error for a storage fault, keeping the driver's error as its cause. */
export function storageError(fault: StorageFault, cause?: unknown): PunctualError {
  return fault === 'corrupt'
    ? new PunctualError(
        'STORAGE_CORRUPT',
        'the database is damaged: it refuses writes until it is repaired or restored from a backup',
        {},
        { cause },
      )
    : new PunctualError(
        'STORAGE_FULL',
        'the disk holding the database is full: writes are refused until space is freed',
        {},
        { cause },
      );
}
