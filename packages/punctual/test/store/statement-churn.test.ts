// Every SQLite driver the store can use survives prepared statements being created and finalized by the
// garbage collector by the thousand (better-sqlite3 12 aborted the process on Node 24.19+ exactly there).
// The work runs in a child process with --expose-gc so that a crash fails this test instead of the runner.

import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SQLITE_DRIVERS, type SqliteDriver } from '../../src/store/sqlite/sqlite-driver.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const child = fileURLToPath(new URL('../support/statement-churn-child.ts', import.meta.url));
const STATEMENTS = 20_000;

function installed(driver: SqliteDriver): boolean {
  if (driver === 'node:sqlite') return true;
  try {
    createRequire(import.meta.url).resolve(driver);
    return true;
  } catch {
    return false;
  }
}

function churn(driver: SqliteDriver): Promise<{ code: number | null; signal: string | null; out: string }> {
  return new Promise((resolve) => {
    const proc = spawn(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', child, driver, String(STATEMENTS)],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    proc.stdout.on('data', (c: Buffer) => (out += c.toString()));
    proc.stderr.on('data', (c: Buffer) => (out += c.toString()));
    proc.on('exit', (code, signal) => resolve({ code, signal, out }));
  });
}

describe('prepared statements under forced garbage collection', () => {
  for (const driver of SQLITE_DRIVERS) {
    it.skipIf(!installed(driver))(
      `${driver}: ${STATEMENTS} statements created and collected without a crash`,
      { timeout: 120_000 },
      async () => {
        const { code, signal, out } = await churn(driver);
        expect({ code, signal }, out).toEqual({ code: 0, signal: null });
        expect(out).toContain(`DONE ${STATEMENTS} rows`);
      },
    );
  }
});
