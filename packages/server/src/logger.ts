// The service's logs: pino JSON lines, or one terminal line per event (log-line.ts) when standard output is
// a terminal (or asked for), and the scheduler events worth a line, each with tenantId, scheduleKey and
// runId (and trace_id, span_id of the attempt's span when tracing is on). It must never log a payload, a result, an API key or a webhook secret.

import { pino, type DestinationStream, type Logger } from 'pino';
import type { Run, Scheduler, TraceIds } from 'punctual';
import type { Config } from './config.js';
import { formatLogChunk } from './log-line.js';

export type { Logger } from 'pino';

export interface LoggerOptions {
  /** Where lines go. Default: standard output. */
  destination?: DestinationStream;
  /** Whether the destination is a terminal (decides `auto`). */
  isTty?: boolean;
}

/**
 * A destination that turns each JSON line pino writes into one terminal line (log-line.ts) on `out`.
 */
export function terminalDestination(
  out: { write(text: string): unknown },
  opts: { colorize: boolean },
): DestinationStream {
  return {
    write(chunk: string) {
      const text = formatLogChunk(chunk, opts);
      if (text !== '') out.write(text);
    },
  };
}

/**
 * Builds the logger: JSON lines, or one terminal line per event when pretty (asked for, or `auto` on a
 * terminal).
 */
export async function createLogger(
  config: Pick<Config, 'logLevel' | 'logFormat'>,
  opts: LoggerOptions = {},
): Promise<Logger> {
  const pretty = config.logFormat === 'pretty' || (config.logFormat === 'auto' && opts.isTty === true);
  const base = { level: config.logLevel, base: { service: 'punctual' } };
  if (pretty) {
    const out = opts.destination ?? process.stdout;
    return pino(base, terminalDestination(out, { colorize: opts.isTty === true }));
  }
  return opts.destination ? pino(base, opts.destination) : pino(base);
}

function ids(run: Run, trace?: TraceIds): Record<string, unknown> {
  const out: Record<string, unknown> = {
    tenantId: run.tenantId,
    scheduleKey: run.scheduleKey,
    runId: run.id,
    occurrenceId: run.occurrenceId,
    attempt: run.attempt,
  };
  // The attempt's span, when tracing is on: the OpenTelemetry log field names.
  if (trace) {
    out.trace_id = trace.traceId;
    out.span_id = trace.spanId;
  }
  return out;
}

/** Logs the scheduler's events: failures and lapses at warn, normal progress at debug. Returns an unsubscribe. */
export function logSchedulerEvents(scheduler: Scheduler, logger: Logger): () => void {
  const log = logger.child({ component: 'scheduler' });
  const offs = [
    scheduler.on('run:started', ({ run, trace }) => log.debug(ids(run, trace), 'run started')),
    scheduler.on('run:succeeded', ({ run, trace }) => log.info(ids(run, trace), 'run succeeded')),
    scheduler.on('run:retrying', ({ run, trace }) =>
      log.info(
        { ...ids(run, trace), error: run.error, retryAt: new Date(run.dueAt).toISOString() },
        'run will be retried',
      ),
    ),
    scheduler.on('run:dead', ({ run, trace }) =>
      log.warn({ ...ids(run, trace), error: run.error }, 'run failed for good'),
    ),
    scheduler.on('run:expired', ({ run }) => log.warn(ids(run), 'run expired before it could start')),
    scheduler.on('run:skipped', ({ run }) => log.debug({ ...ids(run), reason: run.reason }, 'run skipped')),
    scheduler.on('run:cancelled', ({ run }) =>
      log.debug({ ...ids(run), reason: run.reason }, 'run cancelled'),
    ),
    scheduler.on('lease:reclaimed', ({ run }) => log.warn(ids(run), 'lease lapsed: run taken back')),
    scheduler.on('schedule:notFired', (e) =>
      log.warn(
        e.run
          ? ids(e.run)
          : { tenantId: e.tenantId, scheduleKey: e.scheduleKey, scheduledFor: new Date(e.scheduledFor) },
        e.run ? 'occurrence not fired within its grace' : 'occurrence not materialised within its grace',
      ),
    ),
    scheduler.on('schedule:put', ({ schedule, created }) =>
      log.debug(
        { tenantId: schedule.tenantId, scheduleKey: schedule.key, version: schedule.version },
        created ? 'schedule created' : 'schedule updated',
      ),
    ),
    scheduler.on('schedule:deleted', ({ tenantId, key }) =>
      log.debug({ tenantId, scheduleKey: key }, 'schedule deleted'),
    ),
    scheduler.on('clock:offset', ({ offsetMs, skewed }) =>
      (skewed ? log.warn : log.debug).call(log, { offsetMs }, "offset to the database server's clock"),
    ),
    scheduler.on('database:unavailable', ({ kind, since, where }) =>
      log.error(
        { database: kind, since: new Date(since).toISOString(), where },
        'database unavailable: claims and settlements back off and retry until it answers and accepts writes',
      ),
    ),
    scheduler.on('database:available', ({ kind, since, durationMs }) =>
      log.warn(
        { database: kind, since: new Date(since).toISOString(), outageMs: durationMs },
        'database available again after an outage',
      ),
    ),
    scheduler.on('error', ({ error, where }) => log.error({ err: error, where }, 'engine error')),
  ];
  return () => offs.forEach((off) => off());
}
