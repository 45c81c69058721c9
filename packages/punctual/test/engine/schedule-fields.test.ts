// The schedule fields beside the spec, through the library: the user's summary and labels (validated, kept,
// filterable), creating a schedule paused, and the execution record (firedCount counts runs executed to an
// outcome, not occurrences materialised ahead of time; lastFiredAt / lastSucceededAt).

import { afterEach, describe, expect, it } from 'vitest';
import { fail } from '../../src/targets/outcomes.js';
import { LABELS_MAX, parseLabelFilter } from '../../src/domain/schedule.js';
import { at, harness, type Harness } from '../support/harness.js';

let h: Harness;
afterEach(async () => h?.close());

const target = { handler: 't' };

describe('schedule fields', () => {
  it('keeps a summary beside the generated description, and labels to list by', async () => {
    h = await harness();
    h.s.handle('t', () => {});
    const { schedule } = await h.s.put({
      key: 'mail',
      spec: '0 9 * * *',
      target,
      summary: 'Morning digest for the sales team',
      labels: { jobType: 'email', team: 'sales' },
    });
    expect(schedule).toMatchObject({
      description: expect.stringMatching(/09:00/),
      summary: 'Morning digest for the sales team',
      labels: { jobType: 'email', team: 'sales' },
    });
    await h.s.put({ key: 'sms', spec: '0 9 * * *', target, labels: { jobType: 'sms' } });
    await h.s.put({ key: 'plain', spec: '0 9 * * *', target });
    const listed = await h.s.list({ labels: { jobType: 'email' } });
    expect(listed.items.map((s) => s.key)).toEqual(['mail']);
    expect((await h.s.list({})).items.map((s) => [s.key, s.summary, s.labels])).toEqual([
      ['mail', 'Morning digest for the sales team', { jobType: 'email', team: 'sales' }],
      ['plain', null, {}],
      ['sms', null, { jobType: 'sms' }],
    ]);
  });

  it('refuses bad labels and summaries with SCHEDULE_INVALID, saving nothing', async () => {
    h = await harness();
    h.s.handle('t', () => {});
    const bad: Record<string, unknown>[] = [
      { labels: { 'bad key': 'x' } },
      { labels: { k: 7 } },
      { labels: { k: 'x'.repeat(201) } },
      { labels: Object.fromEntries(Array.from({ length: LABELS_MAX + 1 }, (_, i) => [`k${i}`, 'v'])) },
      { labels: ['a'] },
      { summary: 42 },
      { summary: 'x'.repeat(2001) },
      { state: 'completed' },
    ];
    for (const extra of bad) {
      await expect(h.s.put({ key: 'k', spec: '@daily', target, ...extra })).rejects.toMatchObject({
        code: 'SCHEDULE_INVALID',
        details: { field: Object.keys(extra)[0] },
      });
    }
    expect(await h.s.get('k')).toBeUndefined();
    expect(() => parseLabelFilter('jobType')).toThrow(expect.objectContaining({ code: 'SCHEDULE_INVALID' }));
    expect(parseLabelFilter('jobType:email')).toEqual(['jobType', 'email']);
    expect(parseLabelFilter('url=a:b')).toEqual(['url', 'a:b']);
  });

  it('creates a schedule paused: nothing runs until it is resumed; an update keeps its state', async () => {
    h = await harness({ start: '2026-01-05T00:00:00Z' });
    const started: number[] = [];
    h.s.handle('t', (ctx) => {
      started.push(ctx.run.scheduledFor);
    });
    const { schedule } = await h.s.put({ key: 'p', spec: '@every 1m', target, state: 'paused' });
    expect(schedule).toMatchObject({ state: 'paused', pausedAt: at('2026-01-05T00:00:00Z') });
    await h.clock.advance(5 * 60_000);
    expect(started).toEqual([]);
    const updated = await h.s.put({ key: 'p', spec: '@every 2m', target, state: 'active' });
    expect(updated.schedule.state).toBe('paused');
    await h.s.resume('p');
    await h.clock.advance(2 * 60_000);
    expect(started.length).toBeGreaterThan(0);
  });

  it('counts executed runs in firedCount, with lastFiredAt and lastSucceededAt', async () => {
    h = await harness({ start: '2026-01-05T00:00:00Z' });
    let n = 0;
    h.s.handle('t', () => {
      n += 1;
      if (n === 2) return fail('broken');
    });
    await h.s.put({ key: 'e', spec: '@every 1m', target, policies: { retry: { maxAttempts: 1 } } });
    await h.clock.advance(58_000);
    await h.quiesce();
    // The 00:01 occurrence is materialised ahead of time; it has not run yet.
    expect(await h.s.get('e')).toMatchObject({
      materializedCount: 1,
      firedCount: 0,
      lastFiredAt: null,
      lastSucceededAt: null,
    });
    await h.clock.advance(2_000);
    await h.quiesce();
    expect(await h.s.get('e')).toMatchObject({
      firedCount: 1,
      lastFiredAt: at('2026-01-05T00:01:00Z'),
      lastSucceededAt: at('2026-01-05T00:01:00Z'),
    });
    await h.clock.advance(60_000);
    await h.quiesce();
    const after = (await h.s.get('e'))!;
    expect(after).toMatchObject({
      firedCount: 2,
      lastFiredAt: at('2026-01-05T00:02:00Z'),
      lastSucceededAt: at('2026-01-05T00:01:00Z'),
    });
  });
});
