// The schedule form's target, for every kind the API accepts: the form fields showing a saved target, and the
// target a form stands for (only the chosen kind's fields are read). Free of React; range checks are left to
// the API, whose errors name the same paths as the fields.

import { targetKind, type Target, type TargetOf } from '../api.ts';
import type { FormField, FormState } from './form.ts';
import { envText, formatDurationText, headersText, parseEnv, parseHeaders } from './form-text.ts';

const optionalText = (v: string | number | undefined): string => (v === undefined ? '' : String(v));

/** The target's fields of the form, for every kind (the other kinds' fields stay empty). */
export function targetFields(t: Target): Partial<FormState> {
  const kind = targetKind(t);
  if ('webhook' in t) {
    const w = t.webhook;
    return {
      targetKind: kind,
      webhookUrl: w.url,
      webhookMethod: w.method ?? '',
      webhookHeaders: headersText(w.headers),
      webhookTimeout: w.timeoutMs === undefined ? '' : formatDurationText(w.timeoutMs),
    };
  }
  if ('redis' in t) {
    const r = t.redis;
    return {
      targetKind: kind,
      redisConnection: r.connection,
      redisStream: r.stream,
      redisMaxLen: optionalText(r.maxLen),
    };
  }
  if ('nats' in t)
    return { targetKind: kind, natsConnection: t.nats.connection, natsSubject: t.nats.subject };
  if ('amqp' in t) {
    const a = t.amqp;
    return {
      targetKind: kind,
      amqpConnection: a.connection,
      amqpExchange: a.exchange ?? '',
      amqpRoutingKey: a.routingKey,
    };
  }
  if ('script' in t) {
    const sc = t.script;
    return {
      targetKind: kind,
      scriptSource: sc.source,
      scriptTimeout: sc.timeoutMs === undefined ? '' : formatDurationText(sc.timeoutMs),
      scriptMemoryMb: optionalText(sc.memoryMb),
    };
  }
  if ('command' in t) {
    const c = t.command;
    return {
      targetKind: kind,
      // With a shell the one string is the command line (it may span lines); else one argument per line.
      commandArgv: c.shell ? (c.argv[0] ?? '') : c.argv.join('\n'),
      commandShell: c.shell === undefined ? '' : c.shell ? 'true' : 'false',
      commandCwd: c.cwd ?? '',
      commandEnv: envText(c.env),
      commandStdin: c.stdin ?? '',
      commandTimeout: c.timeoutMs === undefined ? '' : formatDurationText(c.timeoutMs),
    };
  }
  return { targetKind: 'handler', handler: 'handler' in t ? t.handler : '' };
}

export interface Readers {
  int: (field: FormField) => number | undefined;
  duration: (field: FormField) => number | undefined;
  err: (field: FormField, message: string) => void;
}

/** The target the form stands for, of the kind chosen; optional values left empty are left out. */
export function buildTarget(f: FormState, { int, duration, err }: Readers): Target {
  const opt = <K extends string, V>(k: K, v: V | undefined): Partial<Record<K, V>> =>
    v === undefined ? {} : ({ [k]: v } as Record<K, V>);
  switch (f.targetKind) {
    case 'handler':
      return { handler: f.handler.trim() };
    case 'redis':
      return {
        redis: {
          connection: f.redisConnection.trim(),
          stream: f.redisStream.trim(),
          ...opt('maxLen', int('redisMaxLen')),
        },
      };
    case 'nats':
      return { nats: { connection: f.natsConnection.trim(), subject: f.natsSubject.trim() } };
    case 'amqp':
      return {
        amqp: {
          connection: f.amqpConnection.trim(),
          ...opt('exchange', f.amqpExchange.trim() || undefined),
          routingKey: f.amqpRoutingKey.trim(),
        },
      };
    case 'script':
      // The source is sent as typed: whitespace can matter to its author, and line numbers must match.
      return {
        script: {
          source: f.scriptSource,
          ...opt('timeoutMs', duration('scriptTimeout')),
          ...opt('memoryMb', int('scriptMemoryMb')),
        },
      };
    case 'command':
      return { command: buildCommand(f, duration, err) };
    case 'webhook':
      break;
  }
  const webhook: TargetOf<'webhook'>['webhook'] = { url: f.webhookUrl.trim() };
  const method = f.webhookMethod === '' ? undefined : f.webhookMethod;
  if (method) webhook.method = method;
  const headers = parseHeaders(f.webhookHeaders);
  if (typeof headers === 'string') err('webhookHeaders', headers);
  else if (Object.keys(headers).length > 0) webhook.headers = headers;
  const timeoutMs = duration('webhookTimeout');
  if (timeoutMs !== undefined) webhook.timeoutMs = timeoutMs;
  return { webhook };
}

/** A command target from the form: argv one per line (or the command line as typed, with a shell). */
function buildCommand(
  f: FormState,
  duration: Readers['duration'],
  err: Readers['err'],
): TargetOf<'command'>['command'] {
  const shell = f.commandShell === 'true';
  const argv = shell ? [f.commandArgv.trim()] : f.commandArgv.split('\n').filter((a) => a.trim() !== '');
  const command: TargetOf<'command'>['command'] = { argv };
  if (f.commandShell !== '') command.shell = shell;
  if (f.commandCwd.trim() !== '') command.cwd = f.commandCwd.trim();
  const env = parseEnv(f.commandEnv);
  if (typeof env === 'string') err('commandEnv', env);
  else if (Object.keys(env).length > 0) command.env = env;
  if (f.commandStdin !== '') command.stdin = f.commandStdin;
  const timeoutMs = duration('commandTimeout');
  if (timeoutMs !== undefined) command.timeoutMs = timeoutMs;
  return command;
}
