// Message id templates: the placeholders each render from the run, the default is the occurrence id, and a
// template is validated when saved (an unknown placeholder, none at all, or a stray character is refused
// with ID_TEMPLATE_INVALID naming the field).

import { describe, expect, it } from 'vitest';
import { ID_TEMPLATE_PLACEHOLDERS, messageId, parseIdTemplate } from '../../src/domain/message-id.js';
import { parseTarget } from '../../src/domain/target.js';

const AT = Date.parse('2026-01-05T09:00:00.250Z');
const run = {
  scheduleKey: 'billing.invoices',
  scheduleId: '17',
  scheduledFor: AT,
  occurrenceId: `17:${AT}`,
  id: '901',
  tenantId: 'acme',
};

describe('message ids', () => {
  it('is the occurrence id without a template', () => {
    expect(messageId(undefined, run)).toBe(`17:${AT}`);
  });

  it('fills in every placeholder from the run', () => {
    const all = ID_TEMPLATE_PLACEHOLDERS.map((p) => `{${p}}`).join('/');
    expect(messageId(parseIdTemplate(all, 'f'), run)).toBe(
      [
        'billing.invoices',
        '17',
        String(AT),
        String(Math.floor(AT / 1000)),
        '2026-01-05T09:00:00.250Z',
        `17:${AT}`,
        '901',
        'acme',
      ].join('/'),
    );
    expect(messageId('{key}-{scheduledForSeconds}', run)).toBe('billing.invoices-1767603600');
  });

  it('refuses an unknown placeholder, a template without one, and stray characters', () => {
    const bad: [unknown, RegExp][] = [
      ['{key}-{scheduledForSecs}', /unknown placeholder \{scheduledForSecs\}/],
      ['static-id', /at least one placeholder/],
      ['{key} {runId}', /may hold only/],
      ['{key}-{', /may hold only/],
      ['', /non-empty/],
      [42, /non-empty/],
      [`{key}${'x'.repeat(200)}`, /at most 200/],
    ];
    for (const [template, message] of bad) {
      expect(() => parseIdTemplate(template, 'target.webhook.idTemplate')).toThrow(
        expect.objectContaining({
          code: 'ID_TEMPLATE_INVALID',
          message: expect.stringMatching(message),
          details: expect.objectContaining({ field: 'target.webhook.idTemplate' }),
        }),
      );
    }
  });

  it('is checked with the target when a schedule is saved, for webhook and broker targets', () => {
    expect(() => parseTarget({ redis: { connection: 'c', stream: 's', idTemplate: '{nope}' } })).toThrow(
      expect.objectContaining({
        code: 'ID_TEMPLATE_INVALID',
        details: expect.objectContaining({ field: 'target.redis.idTemplate', placeholder: 'nope' }),
      }),
    );
    expect(
      parseTarget({ nats: { connection: 'c', subject: 's', idTemplate: '{key}-{scheduledFor}' } }),
    ).toEqual({
      nats: { connection: 'c', subject: 's', idTemplate: '{key}-{scheduledFor}' },
    });
    expect(parseTarget({ amqp: { connection: 'c', routingKey: 'r' } })).toEqual({
      amqp: { connection: 'c', routingKey: 'r' },
    });
    expect(() => parseTarget({ webhook: { url: 'https://example.com/h', idTemplate: '{x}' } })).toThrow(
      expect.objectContaining({ code: 'ID_TEMPLATE_INVALID' }),
    );
  });
});
