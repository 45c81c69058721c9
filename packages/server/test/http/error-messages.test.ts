// The messages of refusals that used to be vague, through the API: a missing or wrong target names the
// library's target kinds (with a "did you mean"), a problem inside a known kind is named by its path, an
// unknown `@` form lists every form and suggests the closest, an instant without an offset says to add Z or
// an offset, and a never-firing RRULE is quoted as written. Each refusal changes nothing.

import { TARGET_KINDS } from 'punctual';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, scheduleBody, testApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => {
  await t?.close();
});

const KINDS = TARGET_KINDS.join(', ');

/** PUTs a schedule body; returns the error after checking the 400 changed nothing. */
async function refused(
  body: Record<string, unknown>,
  url = '/v1/schedules/new-one',
  method: 'PUT' | 'POST' = 'PUT',
) {
  const before = await t.snapshot();
  const res = await t.request({ method, url, as: 'acme', payload: body });
  expect(res.statusCode).toBe(400);
  expect(await t.snapshot()).toBe(before);
  return json(res).error as { code: string; message: string; details: Record<string, unknown> };
}

describe('targets', () => {
  it('lists every kind, from the library, when the target is missing', async () => {
    const { target: _, ...body } = scheduleBody();
    const e = await refused(body);
    expect(e).toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'target' } });
    expect(e.message).toBe(`body.target: is required: an object with one of the target kinds ${KINDS}`);
    expect(KINDS).toContain('script');
  });

  it.each([
    ['a string', 'noop', `must be an object with exactly one of the target kinds ${KINDS}, such as`],
    ['an empty object', {}, `names no target kind: give exactly one of ${KINDS}`],
    [
      'a misspelt kind',
      { webhok: { url: 'https://example.com' } },
      `"webhok" is not a target kind (did you mean "webhook"?); give exactly one of ${KINDS}`,
    ],
    ['an unknown kind', { email: {} }, `"email" is not a target kind; give exactly one of ${KINDS}`],
    [
      'two kinds',
      { handler: 'noop', webhook: { url: 'https://example.com' } },
      `has "handler" and "webhook": give exactly one of the target kinds ${KINDS}`,
    ],
    ['a wrong type inside a kind', { webhook: { url: 5 } }, 'webhook.url: Invalid input: expected string'],
    ['a wrong value inside a kind', { webhook: { url: 'https://e.com', method: 'get' } }, 'webhook.method: '],
  ])('names what is wrong with %s', async (_name, target, message) => {
    const e = await refused(scheduleBody({ target }));
    expect(e.code).toBe('VALIDATION_FAILED');
    expect(e.details.field).toBe('target');
    expect(e.message).toContain(`body.target: ${message}`);
  });
});

describe('specs', () => {
  it('suggests @every for @evry, listing every @ form, on PUT and on preview', async () => {
    const e = await refused(scheduleBody({ spec: '@evry 10s' }));
    expect(e).toMatchObject({ code: 'SPEC_INVALID', details: { field: 'spec', suggestion: '@every' } });
    expect(e.message).toMatch(
      /^spec "@evry 10s": unknown form @evry \(did you mean @every\?\); the @ forms are @every <duration>, @at <instant>, @in <duration> and the cron nicknames @yearly/,
    );
    const p = await refused({ spec: '@evry 10s' }, '/v1/preview', 'POST');
    expect(p.message).toBe(e.message);
  });

  it('quotes a never-firing RRULE as written, without a DTSTART the user never wrote', async () => {
    const e = await refused(scheduleBody({ spec: 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30' }));
    expect(e.code).toBe('SPEC_NEVER_FIRES');
    expect(e.message).not.toContain('DTSTART');
    expect(e.message).toContain('spec "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30"');
    expect(e.details).toMatchObject({ value: 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30' });
  });
});

describe('instants', () => {
  it('says to add Z or an offset to an instant without one, in a body and in a query', async () => {
    const e = await refused(scheduleBody({ startAt: '2026-02-01T00:00:00' }));
    expect(e).toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'startAt' } });
    expect(e.message).toBe(
      'body.startAt: "2026-02-01T00:00:00" has no UTC offset: add Z or an offset, such as ' +
        '2026-02-01T00:00:00Z or 2026-02-01T00:00:00+01:00',
    );
    const res = await t.request({ method: 'GET', url: '/v1/runs?from=2026-02-01T00:00', as: 'acme' });
    expect(res.statusCode).toBe(400);
    expect(json(res).error.message).toBe(
      'query.from: "2026-02-01T00:00" has no UTC offset: add Z or an offset, such as ' +
        '2026-02-01T00:00:00Z or 2026-02-01T00:00:00+01:00',
    );
    const fixed = await t.request({ method: 'GET', url: '/v1/runs?from=2026-02-01T00:00:00Z', as: 'acme' });
    expect(fixed.statusCode).toBe(200);
    const words = await refused(scheduleBody({ endAt: 'tomorrow' }));
    expect(words.message).toBe(
      'body.endAt: must be an ISO-8601 instant with Z or an offset, such as 2026-01-05T09:00:00Z',
    );
  });
});
