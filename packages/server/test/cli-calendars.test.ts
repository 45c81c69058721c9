// Calendars from the command line and the API, against the assembled service on a real socket (port 0,
// SQLite in a temporary folder): `calendars import|put|get|ls|rm`, a schedule using one (and the refusal to
// delete it), and `punctual preview --exclude` with a calendar file (.ics, .json) and with a stored name,
// printing the instants with their annotations and, with --explain, the dates dropped and why. Instants are
// fixed; only the service's own clock is real, and no assertion depends on it.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  calendarsGet,
  calendarsImport,
  calendarsList,
  calendarsPut,
  calendarsRemove,
} from '../src/cli/commands/calendars.js';
import { calendarsRevisions, calendarsRollback } from '../src/cli/commands/calendars-history.js';
import { preview } from '../src/cli/commands/preview.js';
import type { CliIo } from '../src/cli/io.js';
import { loadConfig } from '../src/config.js';
import { createService, type Service } from '../src/service.js';

let dir: string;
let service: Service;
let env: Record<string, string>;
const FROM = '2026-12-20T00:00:00Z';
const DE_ICS = fileURLToPath(new URL('./fixtures/de-holidays.ics', import.meta.url));

// Dated events only (no yearly rule), so the import does not depend on the year the service runs in.
const OFFICE_ICS = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'BEGIN:VEVENT',
  'DTSTART;VALUE=DATE:20261224',
  'DTEND;VALUE=DATE:20261227',
  'SUMMARY:Office closed',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'DTSTART;VALUE=DATE:20270101',
  'SUMMARY:New Year',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'DTSTART:20261222T100000Z',
  'SUMMARY:Meeting',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'punctual-cli-calendars-'));
  const config = loadConfig({
    PUNCTUAL_DATABASE_PATH: join(dir, 'punctual.db'),
    PUNCTUAL_PORT: '0',
    PUNCTUAL_SHUTDOWN_GRACE: '1s',
    PUNCTUAL_DEFAULT_RATE_LIMIT: '10000',
  });
  service = await createService(config, { logger: pino({ level: 'silent' }), processMetrics: false });
  const { url } = await service.start();
  env = { PUNCTUAL_URL: url, PUNCTUAL_API_KEY: service.bootstrap!.apiKey };
  writeFileSync(join(dir, 'office.ics'), OFFICE_ICS);
  writeFileSync(
    join(dir, 'shop.json'),
    JSON.stringify({
      name: 'shop',
      tz: 'Europe/Berlin',
      dates: [{ start: '2026-12-21', label: 'Inventory' }],
    }),
  );
});

afterAll(async () => {
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function run<A>(cmd: (args: A, io: CliIo) => Promise<number>, args: A) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    stdout: (t) => void out.push(t),
    stderr: (t) => void err.push(t),
    now: () => Date.parse('2026-12-01T00:00:00Z'),
  };
  const code = await cmd(args, io);
  return { code, out: out.join(''), err: err.join('') };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const parse = (text: string): any => JSON.parse(text);

describe('calendars commands', () => {
  it('imports an .ics file with its labels, lists, shows, and refuses to delete one a schedule uses', async () => {
    const imported = await run(calendarsImport, {
      env,
      name: 'office',
      file: join(dir, 'office.ics'),
      tz: 'Europe/Berlin',
      workingDays: 'mon,tue,wed,thu,fri',
    });
    expect(imported.err).toBe('');
    expect(imported.out).toBe(
      'punctual: imported 2 dates into calendar office (version 1)\n  left out: Meeting: not an all-day event (DTSTART has a time of day)\n',
    );
    const got = parse((await run(calendarsGet, { env, name: 'office', json: true })).out);
    expect(got).toMatchObject({
      name: 'office',
      tz: 'Europe/Berlin',
      dates: [
        { start: '2026-12-24', end: '2026-12-26', label: 'Office closed' },
        { start: '2027-01-01', end: '2027-01-01', label: 'New Year' },
      ],
      workingDays: ['mon', 'tue', 'wed', 'thu', 'fri'],
      version: 1,
    });
    expect((await run(calendarsGet, { env, name: 'office' })).out).toContain(
      '2026-12-24  2026-12-26  Office closed',
    );
    const saved = await run(calendarsPut, { env, name: 'shop', file: join(dir, 'shop.json') });
    expect(saved.out).toBe('punctual: created calendar shop (version 1, 1 dates)\n');
    expect(
      parse((await run(calendarsList, { env, json: true })).out).items.map((c: { name: string }) => c.name),
    ).toEqual(['office', 'shop']);

    // A schedule that uses it (through the API), then the refused delete.
    const res = await fetch(`${env.PUNCTUAL_URL}/v1/schedules/daily-report`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${env.PUNCTUAL_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        spec: '0 9 * * *',
        tz: 'Europe/Berlin',
        exclude: ['office'],
        businessDays: { calendar: 'shop', roll: 'next' },
        target: { webhook: { url: 'https://example.com/hook' } },
      }),
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({
      exclude: ['office'],
      businessDays: { calendar: 'shop', roll: 'next' },
    });
    expect((await run(calendarsGet, { env, name: 'office' })).out).toContain('used by: daily-report\n');
    const refused = await run(calendarsRemove, { env, name: 'office', json: true });
    expect(refused.code).not.toBe(0);
    expect(refused.out + refused.err).toContain('CALENDAR_IN_USE');

    const unknown = await fetch(`${env.PUNCTUAL_URL}/v1/schedules/other`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${env.PUNCTUAL_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        spec: '0 9 * * *',
        exclude: ['nope'],
        target: { webhook: { url: 'https://example.com/hook' } },
      }),
    });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({
      error: { code: 'CALENDAR_UNKNOWN', details: { field: 'exclude[0]' } },
    });
  });
});

describe('calendars import of a bad file', () => {
  it('refuses a file that is not iCalendar or is over the limit with its code, creating nothing', async () => {
    const notIcs = await run(calendarsImport, {
      env,
      name: 'bad',
      file: 'notes.ics',
      readFile: () => 'Subject: holidays\n\n25 Dec\n',
    });
    expect(notIcs.code).not.toBe(0);
    expect(notIcs.err).toMatch(/^punctual: CALENDAR_ICS_INVALID: .*\(ics\)\n$/);
    const big = `BEGIN:VCALENDAR\r\n${'X-PAD:'.padEnd(3 * 1024 * 1024, 'x')}\r\nEND:VCALENDAR\r\n`;
    const tooLarge = await run(calendarsImport, {
      env,
      name: 'bad',
      file: 'big.ics',
      readFile: () => big,
      json: true,
    });
    expect(tooLarge.code).not.toBe(0);
    expect(JSON.parse(tooLarge.out)).toMatchObject({ error: { code: 'CALENDAR_ICS_TOO_LARGE' } });
    const got = await run(calendarsGet, { env, name: 'bad', json: true });
    expect(JSON.parse(got.out)).toMatchObject({ error: { code: 'CALENDAR_NOT_FOUND' } });
  });
});

describe('calendars revisions and rollback', () => {
  it('lists the dates each change added and removed, and rolls back to an earlier version', async () => {
    const put = (dates: unknown[]) =>
      writeFileSync(join(dir, 'team.json'), JSON.stringify({ name: 'team', tz: 'UTC', dates }));
    put([{ start: '2027-02-01', end: '2027-02-03', label: 'Offsite' }]);
    await run(calendarsPut, { env, name: 'team', file: join(dir, 'team.json') });
    put(['2027-03-01']);
    await run(calendarsPut, { env, name: 'team', file: join(dir, 'team.json') });
    const history = await run(calendarsRevisions, { env, name: 'team' });
    expect(history.err).toBe('');
    const lines = history.out.split('\n');
    expect(lines[0]).toMatch(/^version 2 {2}\S+ {2}updated {2}by apiKey:/);
    expect(lines.slice(1, 3)).toEqual(['    + 2027-03-01', '    - 2027-02-01..2027-02-03 Offsite']);
    expect(history.out).toContain('version 1  ');
    expect(history.out).toContain('    tz: null -> "UTC"\n');

    const back = await run(calendarsRollback, { env, name: 'team', version: '1' });
    expect(back.out).toBe('punctual: rolled calendar team back to the content of version 1, now version 3\n');
    const got = parse((await run(calendarsGet, { env, name: 'team', json: true })).out);
    expect(got.dates).toEqual([{ start: '2027-02-01', end: '2027-02-03', label: 'Offsite' }]);
    const json = parse((await run(calendarsRevisions, { env, name: 'team', json: true, limit: 1 })).out);
    expect(json.items).toMatchObject([{ version: 3, change: 'rolledBack', fromVersion: 1 }]);

    const missing = await run(calendarsRollback, { env, name: 'team', version: '9' });
    expect(missing.code).not.toBe(0);
    expect(missing.err).toContain('REVISION_UNKNOWN');
    const bad = await run(calendarsRollback, { env, name: 'team', version: 'x' });
    expect(bad.code).not.toBe(0);
  });
});

describe('punctual preview --exclude', () => {
  it('an .ics file: the holidays are left out, and --explain names the calendar and the label', async () => {
    const r = await run(preview, {
      spec: '0 9 * * *',
      tz: 'Europe/Berlin',
      from: FROM,
      count: 10,
      exclude: [DE_ICS],
      json: true,
      explain: true,
    });
    expect(r.err).toBe('');
    const p = parse(r.out);
    expect(p.next).toEqual([
      '2026-12-20T08:00:00.000Z',
      '2026-12-21T08:00:00.000Z',
      '2026-12-22T08:00:00.000Z',
      '2026-12-23T08:00:00.000Z',
      '2026-12-24T08:00:00.000Z',
      '2026-12-27T08:00:00.000Z',
      '2026-12-28T08:00:00.000Z',
      '2026-12-29T08:00:00.000Z',
      '2026-12-30T08:00:00.000Z',
      '2026-12-31T08:00:00.000Z',
    ]);
    const xmas = 'Weihnachten (1. und 2. Feiertag), bundesweit';
    expect(p.dropped).toEqual([
      { at: '2026-12-25T08:00:00.000Z', reason: 'calendar', calendar: 'de-holidays', label: xmas },
      { at: '2026-12-26T08:00:00.000Z', reason: 'calendar', calendar: 'de-holidays', label: xmas },
    ]);
  });

  it('a .json file and a stored calendar by name (read through the service), in words', async () => {
    const r = await run(preview, {
      spec: '0 9 * * *',
      tz: 'Europe/Berlin',
      from: FROM,
      count: 4,
      exclude: [join(dir, 'shop.json'), 'office'],
      explain: true,
      env,
    });
    expect(r.err).toBe('');
    expect(r.out).toContain('dropped 2026-12-21T08:00:00.000Z  calendar (shop: Inventory)');
    expect(r.out).toContain('dropped 2026-12-24T08:00:00.000Z  calendar (office: Office closed)');
    expect(
      r.out
        .split('\n')
        .filter((l) => /^2026-12-\d\dT/.test(l))
        .map((l) => l.slice(0, 24)),
    ).toEqual([
      '2026-12-20T08:00:00.000Z',
      '2026-12-22T08:00:00.000Z',
      '2026-12-23T08:00:00.000Z',
      '2026-12-27T08:00:00.000Z',
    ]);
  });

  it('the API preview takes exclude and businessDays and annotates a rolled occurrence', async () => {
    const res = await fetch(`${env.PUNCTUAL_URL}/v1/preview`, {
      method: 'POST',
      headers: { authorization: `Bearer ${env.PUNCTUAL_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        spec: '0 9 * * *',
        tz: 'Europe/Berlin',
        from: '2026-12-24T00:00:00Z',
        count: 2,
        businessDays: { calendar: 'office', roll: 'next' },
      }),
    });
    expect(res.status).toBe(200);
    const p = (await res.json()) as { occurrences: unknown[] };
    // The 24th to 26th are closed, the 27th a Sunday: the 24th rolls to Monday the 28th at 09:00.
    expect(p.occurrences[0]).toEqual({
      at: '2026-12-28T08:00:00.000Z',
      notes: [{ kind: 'rolled', rule: 'next', calendar: 'office', from: '2026-12-24T08:00:00.000Z' }],
    });
  });
});
