// The command line: preview and describe called as functions with a fake io (exact JSON shapes, exit codes,
// the DST case), and one spawn of the real entry point through the
// TypeScript loader (with the test tsconfig, so `punctual` resolves to the library's sources and nothing
// needs building). `serve` has its own file, serve.test.ts.

import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe as suite, expect, it } from 'vitest';
import { describe } from '../src/cli/commands/describe.js';
import { formatInZone, preview } from '../src/cli/commands/preview.js';
import type { CliIo } from '../src/cli/io.js';

const NOW = Date.parse('2026-03-07T12:00:00Z');
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

function fakeIo(now = NOW): { io: CliIo; out: () => string; err: () => string } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), now: () => now },
    out: () => out.join(''),
    err: () => err.join(''),
  };
}

// 2026-03-08 is the spring-forward day in New York: 02:30 does not exist, so it runs at 03:00 EDT (07:00Z).
const NEW_YORK_0230 = [
  '2026-03-08T07:00:00.000Z',
  '2026-03-09T06:30:00.000Z',
  '2026-03-10T06:30:00.000Z',
  '2026-03-11T06:30:00.000Z',
  '2026-03-12T06:30:00.000Z',
];

suite('punctual preview', () => {
  it('prints exactly {"description", "next", "occurrences", "dst"} with --json, UTC ISO with milliseconds', async () => {
    const { io, out, err } = fakeIo();
    const code = await preview(
      { spec: '30 2 * * *', tz: 'America/New_York', from: '2026-03-07T12:00:00Z', json: true },
      io,
    );
    expect(code).toBe(0);
    expect(err()).toBe('');
    const printed = JSON.parse(out()) as Record<string, unknown>;
    expect(Object.keys(printed)).toEqual(['description', 'next', 'occurrences', 'dst']);
    expect(typeof printed.description).toBe('string');
    expect(printed.description).not.toBe('');
    expect(printed.next).toEqual(NEW_YORK_0230);
    expect(out().endsWith('\n')).toBe(true);
  });

  it('starts from io.now() when --from is absent, and --count bounds the list', async () => {
    const { io, out } = fakeIo();
    expect(await preview({ spec: '30 2 * * *', tz: 'America/New_York', count: '2', json: true }, io)).toBe(0);
    expect((JSON.parse(out()) as { next: string[] }).next).toEqual(NEW_YORK_0230.slice(0, 2));
  });

  it('accepts --from with an offset', async () => {
    const { io, out } = fakeIo(0);
    await preview(
      { spec: '30 2 * * *', tz: 'America/New_York', from: '2026-03-07T07:00:00-05:00', count: 1, json: true },
      io,
    );
    expect((JSON.parse(out()) as { next: string[] }).next).toEqual([NEW_YORK_0230[0]]);
  });

  it('prints the description, then each instant in UTC and in the spec zone', async () => {
    const { io, out } = fakeIo();
    const json = fakeIo();
    await preview({ spec: '30 2 * * *', tz: 'America/New_York', count: 2, json: true }, json.io);
    const { description } = JSON.parse(json.out()) as { description: string };

    expect(await preview({ spec: '30 2 * * *', tz: 'America/New_York', count: 2 }, io)).toBe(0);
    expect(out().split('\n')).toEqual([
      description,
      '2026-03-08T07:00:00.000Z  Sun 2026-03-08 03:00:00 -04:00 America/New_York  (DST: 2026-03-08T02:30:00 does not exist, runs at 2026-03-08T03:00:00)',
      '2026-03-09T06:30:00.000Z  Mon 2026-03-09 02:30:00 -04:00 America/New_York',
      '',
    ]);
  });

  it('--json annotates each instant; --explain lists the dropped candidates', async () => {
    const { io, out } = fakeIo();
    const args = {
      spec: '0 9 * * *',
      tz: 'Europe/Berlin',
      from: '2026-12-20T00:00:00Z',
      count: 10,
      json: true,
    };
    expect(await preview(args, io)).toBe(0);
    const plain = JSON.parse(out()) as Record<string, unknown>;
    expect(plain.dropped).toBeUndefined();
    expect(plain.dst).toEqual({ gap: 'shift', repeat: 'first' });
    expect((plain.occurrences as unknown[])[0]).toEqual({ at: '2026-12-20T08:00:00.000Z', notes: [] });
    expect(plain.occurrences).toHaveLength(10);

    const gap = fakeIo();
    await preview(
      {
        spec: '30 2 * * *',
        tz: 'Europe/Berlin',
        from: '2026-03-28T12:00:00Z',
        count: 2,
        json: true,
        explain: true,
        dstGap: 'skip',
      },
      gap.io,
    );
    expect(JSON.parse(gap.out())).toMatchObject({
      next: ['2026-03-30T00:30:00.000Z', '2026-03-31T00:30:00.000Z'],
      dropped: [{ at: '2026-03-29T01:00:00.000Z', reason: 'dstGap' }],
      dst: { gap: 'skip', repeat: 'first' },
    });

    const both = fakeIo();
    await preview(
      {
        spec: '30 2 * * *',
        tz: 'Europe/Berlin',
        from: '2026-10-24T12:00:00Z',
        count: 3,
        dstRepeat: 'both',
        explain: true,
      },
      both.io,
    );
    expect(both.out().split('\n').slice(1)).toEqual([
      '2026-10-25T00:30:00.000Z  Sun 2026-10-25 02:30:00 +02:00 Europe/Berlin  (DST: repeated time, pass 1)',
      '2026-10-25T01:30:00.000Z  Sun 2026-10-25 02:30:00 +01:00 Europe/Berlin  (DST: repeated time, pass 2)',
      '2026-10-26T01:30:00.000Z  Mon 2026-10-26 02:30:00 +01:00 Europe/Berlin',
      '(nothing dropped)',
      '',
    ]);
  });

  it('refuses a DST choice it does not know, with DST_INVALID', async () => {
    const { io, out } = fakeIo();
    const code = await preview({ spec: '@every 1h', dstGap: 'skip', json: true }, io);
    expect(code).not.toBe(0);
    expect(JSON.parse(out())).toMatchObject({ error: { code: 'DST_INVALID' } });
  });

  it('says so when a spec has fewer instants left than asked', async () => {
    const { io, out } = fakeIo();
    expect(await preview({ spec: '@at 2026-04-01T10:00:00Z', count: 3 }, io)).toBe(0);
    const lines = out().trimEnd().split('\n');
    expect(lines[1]).toBe('2026-04-01T10:00:00.000Z  Wed 2026-04-01 10:00:00 +00:00 UTC');
    expect(lines[2]).toBe('(no further occurrence)');
  });

  it('an invalid spec exits non-zero with exactly {"error": {"code", "message"}} under --json', async () => {
    const { io, out } = fakeIo();
    const code = await preview({ spec: '61 * * * *', json: true }, io);
    expect(code).not.toBe(0);
    const printed = JSON.parse(out()) as { error: Record<string, unknown> };
    expect(Object.keys(printed)).toEqual(['error']);
    expect(Object.keys(printed.error)).toEqual(['code', 'message']);
    expect(printed.error.code).toBe('SPEC_INVALID');
    expect(typeof printed.error.message).toBe('string');
  });

  it('reports a spec that never fires and an unknown zone with their codes', async () => {
    const never = fakeIo();
    expect(await preview({ spec: '0 0 31 2 *', json: true }, never.io)).toBe(1);
    expect(JSON.parse(never.out())).toMatchObject({ error: { code: 'SPEC_NEVER_FIRES' } });

    const zone = fakeIo();
    expect(await preview({ spec: '0 9 * * *', tz: 'Mars/Olympus_Mons', json: true }, zone.io)).toBe(1);
    expect(JSON.parse(zone.out())).toMatchObject({ error: { code: 'TIME_ZONE_UNKNOWN' } });
  });

  it('without --json an error goes to stderr, stdout stays empty', async () => {
    const { io, out, err } = fakeIo();
    expect(await preview({ spec: '61 * * * *' }, io)).toBe(1);
    expect(out()).toBe('');
    expect(err()).toMatch(/^punctual: SPEC_INVALID: .+\n$/);
  });

  it.each([['0'], ['1001'], ['2.5'], ['ten'], ['-1']])(
    'refuses --count %s as a usage error (exit 2)',
    async (count) => {
      const { io, out } = fakeIo();
      expect(await preview({ spec: '* * * * *', count, json: true }, io)).toBe(2);
      expect(JSON.parse(out())).toMatchObject({ error: { code: 'ARGUMENT_INVALID' } });
    },
  );

  it.each([['tomorrow'], ['2026-03-07T12:00:00'], ['2026-03-07'], ['2026-02-30T00:00:00Z']])(
    'refuses --from %s (an instant must name its offset)',
    async (from) => {
      const { io, err } = fakeIo();
      expect(await preview({ spec: '* * * * *', from }, io)).toBe(2);
      expect(err()).toMatch(/^punctual: ARGUMENT_INVALID: --from/);
    },
  );

  it('accepts the edges of --count (from is inclusive)', async () => {
    const one = fakeIo();
    await preview({ spec: '* * * * *', count: '1', json: true }, one.io);
    expect((JSON.parse(one.out()) as { next: string[] }).next).toEqual(['2026-03-07T12:00:00.000Z']);
    const many = fakeIo();
    await preview({ spec: '* * * * *', count: 1000, json: true }, many.io);
    expect((JSON.parse(many.out()) as { next: string[] }).next).toHaveLength(1000);
  });
});

suite('formatInZone', () => {
  it('shows the wall clock with its offset', () => {
    expect(formatInZone(Date.parse('2026-03-08T07:00:00Z'), 'America/New_York')).toBe(
      'Sun 2026-03-08 03:00:00 -04:00',
    );
    expect(formatInZone(Date.parse('2026-01-01T00:00:00Z'), 'UTC')).toBe('Thu 2026-01-01 00:00:00 +00:00');
    expect(formatInZone(Date.parse('2026-01-01T00:00:00.250Z'), 'Asia/Kolkata')).toBe(
      'Thu 2026-01-01 05:30:00.250 +05:30',
    );
  });
});

suite('punctual describe', () => {
  it('prints the description alone, the same one preview gives', async () => {
    const json = fakeIo();
    await preview({ spec: '0 9 * * 1-5', tz: 'Europe/Paris', json: true }, json.io);
    const { description } = JSON.parse(json.out()) as { description: string };

    const { io, out } = fakeIo();
    expect(await describe({ spec: '0 9 * * 1-5', tz: 'Europe/Paris' }, io)).toBe(0);
    expect(out()).toBe(`${description}\n`);
  });

  it('an invalid spec exits non-zero', async () => {
    const { io, out, err } = fakeIo();
    expect(await describe({ spec: '0 0 * * 8', json: true }, io)).toBe(1);
    expect(JSON.parse(out())).toMatchObject({ error: { code: 'SPEC_INVALID' } });
    expect(err()).toBe('');
  });
});

suite('the punctual binary', () => {
  const run = promisify(execFile);
  const cli = (...args: string[]): Promise<{ code: number; stdout: string }> =>
    run(process.execPath, ['--import', 'tsx', 'packages/server/src/cli/main.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, TSX_TSCONFIG_PATH: 'tsconfig.test.json' },
    }).then(
      (r) => ({ code: 0, stdout: r.stdout }),
      (e: { code: number; stdout: string }) => ({ code: e.code, stdout: e.stdout }),
    );

  it('exits 0 with the JSON preview, and non-zero with the JSON error', async () => {
    const [good, bad] = await Promise.all([
      cli(
        'preview',
        '30 2 * * *',
        '--tz',
        'America/New_York',
        '--from',
        '2026-03-07T12:00:00Z',
        '--count',
        '2',
        '--json',
      ),
      cli('preview', '61 * * * *', '--json'),
    ]);
    expect(good.code).toBe(0);
    expect((JSON.parse(good.stdout) as { next: string[] }).next).toEqual(NEW_YORK_0230.slice(0, 2));
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout)).toMatchObject({ error: { code: 'SPEC_INVALID' } });
  });
});
