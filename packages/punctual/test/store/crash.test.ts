// Guarantee 3 for the embedded store: an acknowledged write survives kill -9. A child process writes in a
// loop and acknowledges each write on stdout; we SIGKILL it right after reading an acknowledgement, reopen
// the file and look for every acknowledged key. No sleeps: the test waits on the child's output.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { sqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { TENANT } from '../support/fixtures.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const child = fileURLToPath(new URL('../support/crash-child.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'punctual-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the child until it has acknowledged `acks` writes, kills it with SIGKILL, returns the keys acked. */
async function writeUntilKilled(path: string, prefix: string, acks: number): Promise<string[]> {
  const proc = spawn(process.execPath, ['--import', 'tsx', child, path, prefix], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    proc.on('exit', (_code, signal) => resolve(signal)),
  );
  const acked: string[] = [];
  for await (const line of createInterface({ input: proc.stdout })) {
    if (!line.startsWith('ACK ')) continue;
    acked.push(line.slice(4));
    if (acked.length >= acks) {
      process.kill(proc.pid!, 'SIGKILL');
      break;
    }
  }
  const signal = await exited;
  expect(signal, `the child should die by SIGKILL (stderr: ${stderr})`).toBe('SIGKILL');
  return acked;
}

describe('sqlite store under kill -9', () => {
  it('keeps every acknowledged write', { timeout: 60_000 }, async () => {
    const path = join(dir, 'crash.db');
    const acked: string[] = [];
    for (const [round, acks] of [5, 60, 200].entries()) {
      acked.push(...(await writeUntilKilled(path, `round${round}`, acks)));
    }
    const store = sqliteStore({ path });
    await store.migrate();
    const missing: string[] = [];
    for (const key of acked) {
      const schedule = await store.getSchedule(TENANT, key);
      const runs = await store.listRuns({ tenantId: TENANT, scheduleKey: key, limit: 2 });
      if (schedule === undefined || runs.items.length !== 1) missing.push(key);
    }
    await store.close();
    expect(acked).toHaveLength(265);
    expect(missing).toEqual([]);
  });
});
