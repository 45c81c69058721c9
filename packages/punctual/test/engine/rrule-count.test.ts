// An RRULE COUNT without DTSTART counts from the save instant (19.7): the implicit DTSTART is written into
// the stored spec, so the series and its count survive a restart; the preview shows the same count.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { previewSpec } from '../../src/domain/timing/preview-spec.js';
import { harness, iso, type Harness } from '../support/harness.js';

let h: Harness | undefined;
let dir: string | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const SAVED = '2026-01-05T00:00:00.500Z';
const EXPECTED = ['2026-01-05T00:00:01.000Z', '2026-01-05T00:00:03.000Z', '2026-01-05T00:00:05.000Z'];

describe('RRULE COUNT without DTSTART', () => {
  it('the preview from the save instant shows COUNT occurrences', () => {
    const p = previewSpec('FREQ=SECONDLY;INTERVAL=2;COUNT=3', { from: Date.parse(SAVED), count: 10 });
    expect(p.next.map(iso)).toEqual(EXPECTED);
    expect(p.source).toBe('DTSTART;TZID=UTC:20260105T000001\nRRULE:FREQ=SECONDLY;INTERVAL=2;COUNT=3');
  });

  it('saved in the second pass of a repeated hour, starts when the repeat ends (not an hour back)', () => {
    // 06:30:30Z is 01:30:30 EST, the second pass: local 01:31 would mean 05:31Z, before the save.
    const p = previewSpec('FREQ=MINUTELY;COUNT=3', {
      tz: 'America/New_York',
      from: Date.parse('2026-11-01T06:30:30Z'),
      count: 10,
    });
    expect(p.source).toBe('DTSTART;TZID=America/New_York:20261101T020000\nRRULE:FREQ=MINUTELY;COUNT=3');
    expect(p.next.map(iso)).toEqual([
      '2026-11-01T07:00:00.000Z',
      '2026-11-01T07:01:00.000Z',
      '2026-11-01T07:02:00.000Z',
    ]);
  });

  it('gives COUNT runs, also across a restart', async () => {
    dir = mkdtempSync(join(tmpdir(), 'punctual-count-'));
    const path = join(dir, 'db.sqlite');
    h = await harness({ start: SAVED, path });
    const fired: string[] = [];
    const handler = (ctx: { run: { scheduledFor: number } }): void => {
      fired.push(iso(ctx.run.scheduledFor));
    };
    h.s.handle('tick', handler);
    const { schedule } = await h.s.put({
      key: 'three',
      spec: 'FREQ=SECONDLY;INTERVAL=2;COUNT=3',
      target: { handler: 'tick' },
    });
    expect(schedule.spec).toBe('DTSTART;TZID=UTC:20260105T000001\nRRULE:FREQ=SECONDLY;INTERVAL=2;COUNT=3');
    await h.clock.advance(1_000);
    expect(fired).toEqual(EXPECTED.slice(0, 1));
    await h.close();

    h = await harness({ start: '2026-01-05T00:00:02.000Z', path });
    h.s.handle('tick', handler);
    await h.clock.advance(60_000);
    expect(fired).toEqual(EXPECTED);
    const runs = await h.s.listRuns({ scheduleKey: 'three' });
    expect(runs.items.map((r) => r.state)).toEqual(['succeeded', 'succeeded', 'succeeded']);
  });
});
