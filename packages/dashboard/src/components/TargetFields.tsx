// The schedule form's target fields for the kind chosen: a handler's name, a webhook's URL, method, headers
// and timeout, a broker's connection and destination (redis stream, nats subject, amqp exchange and routing
// key), a script's source in a code area with its limits, or a command's program and arguments (one per
// line, or a command line for /bin/sh -c), working directory, environment, standard input and time limit.
// Every control edits one API path, so the API's errors (a script that does not compile, an unknown connection) appear right under the field they name.
import type { ChangeEvent } from 'react';
import type { FormControls } from './FormControls.tsx';
import type { FormField, FormState } from '../lib/form.ts';

export const DURATION_HINT = 'A duration such as 30s, 5m, 1h30m, or milliseconds.';
const CONNECTION_HINT =
  'A connection the operator configured (PUNCTUAL_*_CONNECTIONS); ask them for its name.';

type OnChange = (
  name: FormField,
) => (e: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) => void;

export interface TargetFieldsProps {
  form: FormState;
  controls: FormControls;
  set: OnChange;
}

export function TargetFields({ form, controls, set }: TargetFieldsProps) {
  const { field, text, number, select } = controls;
  const plain = { autoComplete: 'off', spellCheck: false };
  switch (form.targetKind) {
    case 'handler':
      return field(
        'handler',
        'Handler name',
        text('handler', plain),
        'A handler registered by the application.',
      );
    case 'redis':
      return (
        <>
          {field('redisConnection', 'Redis connection', text('redisConnection', plain), CONNECTION_HINT)}
          {field('redisStream', 'Stream', text('redisStream', plain), 'XADD to this stream.')}
          {field('redisMaxLen', 'Trim to about', number('redisMaxLen'), 'Optional: MAXLEN ~ n entries.')}
        </>
      );
    case 'nats':
      return (
        <>
          {field('natsConnection', 'NATS connection', text('natsConnection', plain), CONNECTION_HINT)}
          {field('natsSubject', 'Subject', text('natsSubject', plain), 'Published to this subject.')}
        </>
      );
    case 'amqp':
      return (
        <>
          {field('amqpConnection', 'AMQP connection', text('amqpConnection', plain), CONNECTION_HINT)}
          {field(
            'amqpExchange',
            'Exchange',
            text('amqpExchange', plain),
            'Optional: empty is the default exchange.',
          )}
          {field('amqpRoutingKey', 'Routing key', text('amqpRoutingKey', plain))}
        </>
      );
    case 'script':
      return (
        <>
          {field(
            'scriptSource',
            'Script source',
            <textarea
              name="target.script.source"
              rows={14}
              value={form.scriptSource}
              onChange={set('scriptSource')}
              spellCheck={false}
              autoCapitalize="off"
              autoCorrect="off"
              wrap="off"
              className="mono code"
              placeholder={'export default async (ctx) => {\n  return { ok: true };\n};'}
            />,
            'An ES module whose default export is called with ctx; compiled when saved.',
          )}
          {field('scriptTimeout', 'Time limit', text('scriptTimeout'), `Optional. ${DURATION_HINT}`)}
          {field('scriptMemoryMb', 'Memory limit (MB)', number('scriptMemoryMb'), 'Optional.')}
        </>
      );
    case 'command':
      return (
        <>
          {field(
            'commandShell',
            'Shell (/bin/sh -c)',
            select('commandShell', ['false', 'true'], 'no (default)'),
            "true: the text below is one command line. Commands run on the service's machine, and only for tenants the operator allowed.",
          )}
          {field(
            'commandArgv',
            form.commandShell === 'true' ? 'Command line' : 'Program and arguments',
            <textarea
              name="target.command.argv"
              rows={4}
              value={form.commandArgv}
              onChange={set('commandArgv')}
              spellCheck={false}
              autoCapitalize="off"
              autoCorrect="off"
              wrap="off"
              className="mono code"
              placeholder={
                form.commandShell === 'true' ? 'pg_dump app | gzip > /backups/app.gz' : '/usr/bin/env\ndate'
              }
            />,
            form.commandShell === 'true'
              ? 'Run by /bin/sh -c as written.'
              : 'One per line: an absolute path to the program first, then each argument.',
          )}
          {field('commandCwd', 'Working directory', text('commandCwd', plain), 'Optional: an absolute path.')}
          {field(
            'commandEnv',
            'Environment',
            <textarea
              name="target.command.env"
              rows={2}
              value={form.commandEnv}
              onChange={set('commandEnv')}
              spellCheck={false}
              className="mono"
              placeholder="REPORT=daily"
            />,
            'Optional: one NAME=value per line, over a minimal environment.',
          )}
          {field(
            'commandStdin',
            'Standard input',
            <textarea
              name="target.command.stdin"
              rows={2}
              value={form.commandStdin}
              onChange={set('commandStdin')}
              spellCheck={false}
              className="mono"
            />,
            'Optional: text written to the command, then closed.',
          )}
          {field(
            'commandTimeout',
            'Time limit',
            text('commandTimeout'),
            `Optional (default 1m). ${DURATION_HINT}`,
          )}
        </>
      );
    case 'webhook':
      return (
        <>
          {field('webhookUrl', 'Webhook URL', text('webhookUrl', { ...plain, type: 'url' }))}
          {field(
            'webhookMethod',
            'Method',
            select('webhookMethod', ['POST', 'PUT', 'PATCH'], 'default POST'),
          )}
          {field(
            'webhookHeaders',
            'Extra headers',
            <textarea
              name="target.webhook.headers"
              rows={2}
              value={form.webhookHeaders}
              onChange={set('webhookHeaders')}
              spellCheck={false}
              placeholder="X-Team: reports"
            />,
            'One "Name: value" per line.',
          )}
          {field('webhookTimeout', 'Request timeout', text('webhookTimeout'), DURATION_HINT)}
        </>
      );
  }
}
