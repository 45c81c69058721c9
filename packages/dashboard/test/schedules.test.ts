// How a schedule's target reads in tables: a few words for every kind the service accepts, and never an
// exception, even for a shape this dashboard does not know (a newer service), so one row cannot blank a page.
import { describe, expect, it } from 'vitest';
import { TARGET_KINDS, type Target } from '../src/api.ts';
import { targetText } from '../src/lib/schedules.ts';

describe('targetText', () => {
  it('summarises every kind', () => {
    const texts: Record<string, string> = {
      handler: targetText({ handler: 'send-report' }),
      webhook: targetText({ webhook: { url: 'https://example.com:8443/hook', method: 'PUT' } }),
      redis: targetText({ redis: { connection: 'main', stream: 'events' } }),
      nats: targetText({ nats: { connection: 'bus', subject: 'jobs.nightly' } }),
      amqp: targetText({ amqp: { connection: 'rabbit', routingKey: 'reports' } }),
      script: targetText({ script: { source: '\n// nightly export\nexport default () => 1;\n' } }),
      command: targetText({ command: { argv: ['/usr/local/bin/backup', '--all'] } }),
    };
    expect(Object.keys(texts).sort()).toEqual([...TARGET_KINDS].sort());
    expect(texts).toEqual({
      handler: 'handler send-report',
      webhook: 'webhook example.com:8443 (PUT)',
      redis: 'redis main → stream events',
      nats: 'nats bus → subject jobs.nightly',
      amqp: 'amqp rabbit → default exchange, key reports',
      script: 'script // nightly export (43 B)',
      command: 'command /usr/local/bin/backup --all',
    });
    expect(targetText({ command: { argv: ['pg_dump app | gzip > /b.gz'], shell: true } })).toBe(
      'command pg_dump app | gzip > /b.gz (sh -c)',
    );
    expect(targetText({ amqp: { connection: 'r', exchange: 'x', routingKey: 'k' } })).toBe(
      'amqp r → exchange x, key k',
    );
  });

  it('never throws on a shape it does not know', () => {
    expect(targetText({ email: { to: 'ops@example.com' } } as unknown as Target)).toBe('email');
    expect(targetText({ webhook: null } as unknown as Target)).toBe('webhook');
    expect(targetText({} as unknown as Target)).toBe('unknown target');
    expect(targetText(null as unknown as Target)).toBe('unknown target');
  });
});
