// Temporary folders for the tests of one describe block: each call makes a fresh one under the system's
// temporary directory, and every folder made is removed after each test. Test support only: it never
// touches a folder it did not make.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

/** Registers the clean-up in the calling describe block; answers the function that makes a folder. */
export function tempFolders(prefix: string): () => string {
  const made: string[] = [];
  afterEach(() => {
    for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    made.push(dir);
    return dir;
  };
}
