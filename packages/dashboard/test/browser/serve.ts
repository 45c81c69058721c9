// What the dashboard's browser tests share: building the dashboard when its dist is stale, and a real
// `punctual serve` child process on a temporary SQLite file, read from its first-start banner. It never
// drives the browser itself.

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
export const DASHBOARD = join(ROOT, 'packages', 'dashboard');
const DIST_INDEX = join(DASHBOARD, 'dist', 'index.html');

/** Newest modification time under `dir` (files only). */
function newest(dir: string): number {
  let t = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const s = statSync(p);
    t = Math.max(t, s.isDirectory() ? newest(p) : s.mtimeMs);
  }
  return t;
}

/** Builds the dashboard when dist is missing or older than its sources (about a second). */
export function ensureBuilt(): void {
  const sources = Math.max(newest(join(DASHBOARD, 'src')), statSync(join(DASHBOARD, 'index.html')).mtimeMs);
  if (existsSync(DIST_INDEX) && statSync(DIST_INDEX).mtimeMs >= sources) return;
  execFileSync(
    process.execPath,
    [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'],
    {
      cwd: DASHBOARD,
      // vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: 'inherit',
    },
  );
}

export interface Service {
  child: ChildProcess;
  url: string;
  apiKey: string;
}

/** Starts `punctual serve` and reads the URL and the first-start API key from its banner. */
export function startService(databasePath: string, env: Record<string, string> = {}): Promise<Service> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/cli/main.ts', 'serve'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PUNCTUAL_DATABASE_PATH: databasePath,
      PUNCTUAL_HOST: '127.0.0.1',
      PUNCTUAL_PORT: '0',
      PUNCTUAL_LOG_FORMAT: 'json',
      PUNCTUAL_LOG_LEVEL: 'warn',
      TSX_TSCONFIG_PATH: 'tsconfig.test.json',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => fail(new Error('punctual serve printed no URL and API key within 30 s')),
      30_000,
    );
    const fail = (e: Error): void => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${e.message}\nstdout:\n${out}\nstderr:\n${err}`));
    };
    child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const url = /serving on (https?:\/\/\S+)/.exec(out)?.[1];
      const apiKey = /\b(pk_[A-Za-z0-9]{32})\b/.exec(out)?.[1];
      if (url && apiKey) {
        clearTimeout(timer);
        resolve({ child, url, apiKey });
      }
    });
    child.on('exit', (code) => fail(new Error(`punctual serve exited with code ${code}`)));
  });
}

export async function stopService(s: Service | undefined): Promise<void> {
  if (!s || s.child.exitCode !== null) return;
  s.child.removeAllListeners('exit');
  const exited = new Promise((r) => s.child.once('exit', r));
  s.child.kill('SIGTERM');
  const timer = setTimeout(() => s.child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
