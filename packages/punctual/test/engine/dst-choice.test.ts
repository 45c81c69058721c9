// The engine runs what the preview shows: a schedule's DST choice decides which runs exist around a change
// (the materializer and the preview share one search). Injected clock, fixed instants.
import { afterEach, expect, it } from 'vitest';
import { harness, type Harness } from '../support/harness.js';

let h: Harness | undefined;
afterEach(async () => h?.close());

const iso = (ms: number): string => new Date(ms).toISOString();

it('repeat "both" runs a fixed time on each pass of the repeated hour (Europe/Berlin 2026-10-25)', async () => {
  h = await harness({ start: '2026-10-24T23:00:00.000Z' });
  const seen: string[] = [];
  h.s.handle('job', (ctx) => {
    seen.push(iso(ctx.run.scheduledFor));
  });
  await h.s.put({
    key: 'both',
    spec: '30 2 * * *',
    tz: 'Europe/Berlin',
    dst: { repeat: 'both' },
    target: { handler: 'job' },
  });
  await h.clock.advance(3 * 3_600_000);
  expect(seen).toEqual(['2026-10-25T00:30:00.000Z', '2026-10-25T01:30:00.000Z']);
});

it('gap "skip" runs nothing on the day a fixed time does not exist (Europe/Berlin 2026-03-29)', async () => {
  h = await harness({ start: '2026-03-29T00:00:00.000Z' });
  const seen: string[] = [];
  h.s.handle('job', (ctx) => {
    seen.push(iso(ctx.run.scheduledFor));
  });
  await h.s.put({
    key: 'skip',
    spec: '30 2 * * *',
    tz: 'Europe/Berlin',
    dst: { gap: 'skip' },
    target: { handler: 'job' },
  });
  await h.clock.advance(25 * 3_600_000);
  expect(seen).toEqual(['2026-03-30T00:30:00.000Z']);
});
