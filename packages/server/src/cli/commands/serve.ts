// `punctual serve`: loads the configuration (environment, optional PUNCTUAL_CONFIG file), runs the service
// (database, migrations, scheduler, HTTP API) until its stop signal fires, then stops gracefully. A database
// that does not answer at start is waited for (PUNCTUAL_DATABASE_WAIT, wait-for-database.ts). It prints
// where the API, its docs and the dashboard are, and on a first start the `default` tenant's API key, once.
// It owns the printed banner and the exit codes of serve; everything else belongs to service.ts.

import type { DestinationStream } from 'pino';
import { ConfigError, loadConfig } from '../../config.js';
import { createLogger } from '../../logger.js';
import { createService, type Service } from '../../service.js';
import { notReadyServer, waitForDatabase } from '../../wait-for-database.js';
import { EXIT_OK, EXIT_REJECTED, EXIT_USAGE, type CliIo } from '../io.js';

export interface ServeArgs {
  /** The environment the settings come from. Default: the process's (main.ts does not pass it yet). */
  env?: Readonly<Record<string, string | undefined>>;
  /** PUNCTUAL_DATABASE_PATH given directly (wins over `env`; empty or undefined: not given). */
  databasePath?: string | undefined;
  /** Fires on SIGINT or SIGTERM: the service stops and the command returns. */
  signal: AbortSignal;
  /** Reads the PUNCTUAL_CONFIG file. Default: fs. */
  readFile?: (path: string) => string;
  /** Where log lines go. Default: standard output. */
  logDestination?: DestinationStream;
  /** Whether standard output is a terminal (pretty logs with PUNCTUAL_LOG_FORMAT=auto). Default: asks stdout. */
  isTty?: boolean;
}

function stopped(signal: AbortSignal): Promise<void> {
  return new Promise((done) => {
    if (signal.aborted) done();
    else signal.addEventListener('abort', () => done(), { once: true });
  });
}

/** What serve prints once it listens. */
export function banner(url: string, database: string, bootstrap: Service['bootstrap']): string {
  const lines = [
    `punctual: serving on ${url} (${database})`,
    `  API        ${url}/v1`,
    `  API docs   ${url}/docs  (OpenAPI: ${url}/openapi.json)`,
    `  Dashboard  ${url}/`,
    `  Metrics    ${url}/metrics`,
  ];
  if (bootstrap) {
    lines.push(
      '',
      `punctual: first start: created the tenant "${bootstrap.tenantId}". Its API key is shown this once`,
      '(only its hash is stored); keep it somewhere safe:',
      '',
      `  ${bootstrap.apiKey}`,
      '',
      `  curl -H "Authorization: Bearer ${bootstrap.apiKey}" ${url}/v1/schedules`,
      '',
    );
  }
  lines.push('Stop with Ctrl+C.');
  return `${lines.join('\n')}\n`;
}

export async function serve(args: ServeArgs, io: CliIo): Promise<number> {
  const env = { ...(args.env ?? process.env) };
  if (args.databasePath) env.PUNCTUAL_DATABASE_PATH = args.databasePath;
  let config;
  try {
    config = args.readFile ? loadConfig(env, args.readFile) : loadConfig(env);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    io.stderr(`punctual: CONFIG_INVALID: the configuration has ${e.problems.length} problem(s):\n`);
    for (const p of e.problems) io.stderr(`  - ${p}\n`);
    return EXIT_USAGE;
  }
  const logger = await createLogger(config, {
    destination: args.logDestination,
    isTty: args.isTty ?? process.stdout.isTTY === true,
  });
  let service: Service | null;
  let url: string;
  // While the database does not answer, a stand-in answers on the service's address: up, not ready.
  let standIn: Promise<{ close(): Promise<void> } | null> | undefined;
  try {
    service = await waitForDatabase(() => createService(config, { logger }), {
      waitMs: config.databaseWaitMs,
      signal: args.signal,
      onWait: (e, attempt, delayMs) => {
        logger.warn(
          { err: e, attempt, retryInMs: delayMs, waitMs: config.databaseWaitMs },
          'not ready: the database does not answer; waiting for it (PUNCTUAL_DATABASE_WAIT)',
        );
        standIn ??= notReadyServer(config.host, config.port).then(
          (s) => {
            logger.info(
              { host: config.host, port: s.port },
              'answering 503 NOT_READY until the database answers',
            );
            return s;
          },
          (err: unknown) => {
            logger.warn({ err }, 'could not listen while waiting for the database');
            return null;
          },
        );
      },
    });
  } catch (e) {
    logger.fatal({ err: e }, 'could not open the service');
    io.stderr(`punctual: cannot start: ${e instanceof Error ? e.message : String(e)}\n`);
    return EXIT_REJECTED;
  } finally {
    await (await standIn)?.close();
  }
  if (service === null) {
    io.stdout('punctual: stopped while waiting for the database\n');
    return EXIT_OK;
  }
  try {
    ({ url } = await service.start());
  } catch (e) {
    logger.fatal({ err: e }, 'could not start');
    io.stderr(`punctual: cannot start: ${e instanceof Error ? e.message : String(e)}\n`);
    await service.close().catch(() => {});
    return EXIT_REJECTED;
  }
  io.stdout(banner(url, service.database, service.bootstrap));
  await stopped(args.signal);
  io.stdout('punctual: stopping (in-flight requests finish; in-flight runs get the shutdown grace)\n');
  await service.close();
  io.stdout('punctual: stopped\n');
  return EXIT_OK;
}
