// `punctual serve`: runs the scheduler on the SQLite file at PUNCTUAL_DATABASE_PATH (default
// ./data/punctual.db) until its stop signal fires, then stops gracefully (in-flight runs finish or are handed
// back) and closes the store. It owns nothing else: the HTTP API is not served here yet, and this file must
// not pretend it is.

import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createScheduler, DEFAULT_DATABASE_PATH, sqliteStore } from 'punctual';
import { EXIT_OK, reportError, type CliIo } from '../io.js';

export interface ServeArgs {
  /** The database file (PUNCTUAL_DATABASE_PATH); empty or undefined: ./data/punctual.db. */
  databasePath?: string | undefined;
  /** Fires on SIGINT or SIGTERM: the scheduler stops and the command returns. */
  signal: AbortSignal;
}

/** The database file serve opens, made absolute against the working directory. */
export function databasePathOf(databasePath: string | undefined): string {
  return resolve(databasePath === undefined || databasePath === '' ? DEFAULT_DATABASE_PATH : databasePath);
}

function stopped(signal: AbortSignal): Promise<void> {
  return new Promise((done) => {
    if (signal.aborted) done();
    else signal.addEventListener('abort', () => done(), { once: true });
  });
}

export async function serve(args: ServeArgs, io: CliIo): Promise<number> {
  const path = databasePathOf(args.databasePath);
  mkdirSync(dirname(path), { recursive: true });
  const scheduler = createScheduler({ store: sqliteStore({ path }) });
  scheduler.on('error', ({ error, where }) => {
    io.stderr(`punctual: error in ${where}: ${error instanceof Error ? error.message : String(error)}\n`);
  });
  try {
    await scheduler.start();
  } catch (e) {
    await scheduler.close().catch(() => {});
    return reportError(e, io, false);
  }
  // The engine's own timers keep the process alive today; this makes it independent of that detail.
  const keepAlive = setInterval(() => {}, 1 << 30);
  io.stdout(
    `punctual: scheduler running on the SQLite database ${path}; no HTTP API yet (it arrives with the service), ` +
      `so schedules are managed through the library for now. Stop with Ctrl+C.\n`,
  );
  await stopped(args.signal);
  io.stdout('punctual: stopping (in-flight runs get the shutdown grace to finish)\n');
  try {
    await scheduler.close();
  } finally {
    clearInterval(keepAlive);
  }
  io.stdout('punctual: stopped\n');
  return EXIT_OK;
}
