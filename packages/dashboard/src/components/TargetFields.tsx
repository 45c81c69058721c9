// The schedule form's target fields for the kind chosen: a handler's name, a webhook's URL, method, headers
// and timeout, a broker's connection and destination (redis stream, nats subject, amqp exchange and routing
// key), or a script's source in a code area with its limits. Every control edits one API path, so the API's
// errors (a script that does not compile, an unknown connection) appear right under the field they name.
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
