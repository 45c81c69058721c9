// `punctual import crontab` without a service: a crontab of representative lines (a comment, MAILTO, PATH,
// CRON_TZ, ranges, steps, month and day names, @daily, @reboot, `%` as standard input and `\%` as a literal)
// converts to exactly the expected schedules file; the `%` rules, the system format's user field, SHELL=,
// TZ=, lines not understood, readable unique keys, and that every spec written is one the library accepts.

import { compileSpec } from 'punctual';
import { describe, expect, it } from 'vitest';
import { importCrontab } from '../src/cli/commands/import-crontab.js';
import { crontabToSchedules, keyCandidates } from '../src/cli/crontab/crontab-to-schedules.js';
import { looksLikeSystemCrontab, splitPercent } from '../src/cli/crontab/parse-crontab.js';
import type { CliIo } from '../src/cli/io.js';

const CRONTAB = String.raw`# m h dom mon dow command
MAILTO=ops@example.com
PATH=/usr/local/bin:/usr/bin:/bin
30 2 * * * /usr/local/bin/backup-db.sh --full > /var/log/backup.log 2>&1
CRON_TZ=Europe/Paris
0 9 * * mon-fri cd /srv/app && php artisan reports:send
*/15 8-18 * * 1-5 curl -fsS https://example.com/ping
0 0 1 jan,jul * /usr/local/bin/rotate-keys
@daily /usr/local/bin/backup-db.sh --incremental
@reboot /usr/local/bin/start-agent
5 4 * * sun mail -s "Weekly report" ops@example.com%Hello,%The weekly report is ready: 100\%.
0 3 * * * date +\%Y-\%m-\%d >> /var/log/dates
`;

const ENV = `        env:
          PATH: /usr/local/bin:/usr/bin:/bin
`;

const EXPECTED = String.raw`# Converted from the user crontab crontab.txt by punctual import crontab.
# Lines without CRON_TZ= or TZ= above them are read in UTC.

# line 2: MAILTO has no meaning here: Punctual sends no mail; each run's outcome is in its history
# line 10: @reboot has no meaning here: Punctual runs schedules at times, not when a machine starts; not converted: @reboot /usr/local/bin/start-agent

schedules:
  - key: backup-db
    summary: "crontab line 4: 30 2 * * * /usr/local/bin/backup-db.sh --full > /var/log/backup.log 2>&1"
    spec: 30 2 * * *
    tz: UTC
    target:
      command:
        argv:
          - /usr/local/bin/backup-db.sh --full > /var/log/backup.log 2>&1
        shell: true
${ENV}  - key: artisan
    summary: "crontab line 6: 0 9 * * mon-fri cd /srv/app && php artisan reports:send"
    spec: 0 9 * * mon-fri
    tz: Europe/Paris
    target:
      command:
        argv:
          - cd /srv/app && php artisan reports:send
        shell: true
${ENV}  - key: curl
    summary: "crontab line 7: */15 8-18 * * 1-5 curl -fsS https://example.com/ping"
    spec: "*/15 8-18 * * 1-5"
    tz: Europe/Paris
    target:
      command:
        argv:
          - curl -fsS https://example.com/ping
        shell: true
${ENV}  - key: rotate-keys
    summary: "crontab line 8: 0 0 1 jan,jul * /usr/local/bin/rotate-keys"
    spec: 0 0 1 jan,jul *
    tz: Europe/Paris
    target:
      command:
        argv:
          - /usr/local/bin/rotate-keys
        shell: true
${ENV}  - key: backup-db-2
    summary: "crontab line 9: @daily /usr/local/bin/backup-db.sh --incremental"
    spec: 0 0 * * *
    tz: Europe/Paris
    target:
      command:
        argv:
          - /usr/local/bin/backup-db.sh --incremental
        shell: true
${ENV}  - key: mail
    summary: 'crontab line 11: 5 4 * * sun mail -s "Weekly report" ops@example.com%Hello,%The weekly report is ready: 100\%.'
    spec: 5 4 * * sun
    tz: Europe/Paris
    target:
      command:
        argv:
          - mail -s "Weekly report" ops@example.com
        shell: true
${ENV}        stdin: |-
          Hello,
          The weekly report is ready: 100%.
  - key: date
    summary: "crontab line 12: 0 3 * * * date +\\%Y-\\%m-\\%d >> /var/log/dates"
    spec: 0 3 * * *
    tz: Europe/Paris
    target:
      command:
        argv:
          - date +%Y-%m-%d >> /var/log/dates
        shell: true
${ENV}`;

function fakeIo() {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), now: () => 0 };
  return { io, out: () => out.join(''), err: () => err.join('') };
}

describe('punctual import crontab', () => {
  it('converts a crontab of representative lines to exactly the expected schedules file', async () => {
    const { io, out, err } = fakeIo();
    const code = await importCrontab({ file: 'crontab.txt', readFile: () => CRONTAB }, io);
    expect(code).toBe(0);
    expect(out()).toBe(EXPECTED);
    expect(err()).toBe(
      "punctual: line 2: MAILTO has no meaning here: Punctual sends no mail; each run's outcome is in its history\n" +
        'punctual: line 10: @reboot has no meaning here: Punctual runs schedules at times, not when a machine starts; not converted: @reboot /usr/local/bin/start-agent\n' +
        'punctual: 7 schedule(s) from crontab.txt; review, then: punctual apply -f FILE\n',
    );
  });

  it('writes only specs, zones and keys the library accepts', () => {
    const { entries } = crontabToSchedules(CRONTAB, { tz: 'UTC', system: false });
    for (const e of entries) {
      expect(e.key).toMatch(/^[A-Za-z0-9_][A-Za-z0-9._:@-]{0,199}$/);
      const compiled = compileSpec(e.spec as string, { tz: e.tz as string, now: Date.UTC(2026, 0, 1) });
      expect(compiled.kind).toBe('cron');
    }
  });

  it('--tz sets the zone of the lines before any CRON_TZ=; -o writes the file; --format json', async () => {
    const { io } = fakeIo();
    const written: Record<string, string> = {};
    await importCrontab(
      {
        file: 'crontab.txt',
        output: 'out.json',
        tz: 'America/New_York',
        readFile: () => CRONTAB,
        writeFile: (p, t) => void (written[p] = t),
      },
      io,
    );
    const file = JSON.parse(written['out.json']!) as { schedules: { key: string; tz: string }[] };
    expect(file.schedules.map((s) => [s.key, s.tz]).slice(0, 2)).toEqual([
      ['backup-db', 'America/New_York'],
      ['artisan', 'Europe/Paris'],
    ]);
  });
});

describe('the % of a crontab command', () => {
  it('ends the command at the first unescaped %, the rest is standard input with % as newlines', () => {
    expect(splitPercent('cat%a%b')).toEqual({ command: 'cat', stdin: 'a\nb' });
    expect(splitPercent('cat%')).toEqual({ command: 'cat', stdin: '' });
    expect(splitPercent(String.raw`date +\%s`)).toEqual({ command: 'date +%s' });
    expect(splitPercent(String.raw`printf '\n' x\%%y\%z%`)).toEqual({
      command: String.raw`printf '\n' x%`,
      stdin: 'y%z\n',
    });
  });
});

describe('the system format', () => {
  it('reads the user field, keeps it as a label and reports it', () => {
    const text =
      'SHELL=/bin/bash\n17 * * * * root cd / && run-parts --report /etc/cron.hourly\n' +
      '25 6 * * * root run-parts --report /etc/cron.daily\n';
    const { entries, notes } = crontabToSchedules(text, { tz: 'UTC', system: true });
    expect(entries).toEqual([
      {
        key: 'run-parts',
        summary: 'crontab line 2: 17 * * * * root cd / && run-parts --report /etc/cron.hourly',
        spec: '17 * * * *',
        tz: 'UTC',
        target: {
          command: {
            argv: ['/bin/bash', '-c', 'cd / && run-parts --report /etc/cron.hourly'],
            env: { SHELL: '/bin/bash' },
          },
        },
        labels: { 'crontab-user': 'root' },
      },
      expect.objectContaining({ key: 'run-parts-cron.daily', labels: { 'crontab-user': 'root' } }),
    ]);
    expect(notes).toEqual([
      { line: 2, note: `runs as the service's user, not as "root" (kept as the label crontab-user)` },
      { line: 3, note: `runs as the service's user, not as "root" (kept as the label crontab-user)` },
    ]);
  });

  it('is recognised by its path or its header', () => {
    expect(looksLikeSystemCrontab('/etc/crontab', '')).toBe(true);
    expect(looksLikeSystemCrontab('/etc/cron.d/backup', '')).toBe(true);
    expect(looksLikeSystemCrontab('my.cron', '# m h dom mon dow user\tcommand\n')).toBe(true);
    expect(looksLikeSystemCrontab('my.cron', '# m h dom mon dow command\n')).toBe(false);
  });
});

describe('crontab lines', () => {
  it('TZ= sets the zone and the variable; a line not understood is reported with its number', () => {
    const text = 'TZ="Asia/Tokyo"\n0 1 * * * backup\n1 2 3\n@hourly python3 /opt/jobs/sync_users.py --all\n';
    const { entries, notes } = crontabToSchedules(text, { tz: 'UTC', system: false });
    expect(
      entries.map((e) => [e.key, e.spec, e.tz, (e.target as { command: { env: unknown } }).command.env]),
    ).toEqual([
      ['backup', '0 1 * * *', 'Asia/Tokyo', { TZ: 'Asia/Tokyo' }],
      ['sync_users', '0 * * * *', 'Asia/Tokyo', { TZ: 'Asia/Tokyo' }],
    ]);
    expect(notes).toEqual([
      { line: 3, note: 'not understood (expected the time and a command); not converted: 1 2 3' },
    ]);
  });

  it('names a schedule after its program or script, unique and within the key rules', () => {
    expect(keyCandidates('/usr/bin/nice -n 10 /opt/bin/Backup_DB.sh --now')).toEqual(['backup_db']);
    expect(keyCandidates('FOO=1 timeout 60 python3 -u /srv/report.py daily')).toEqual([
      'report',
      'report-daily',
    ]);
    expect(keyCandidates('test -x /usr/sbin/anacron || ( cd / && run-parts /etc/cron.daily )')).toEqual([
      'run-parts',
      'run-parts-cron.daily',
    ]);
    expect(keyCandidates('>/dev/null')).toEqual([]);
    const { entries } = crontabToSchedules(
      '* * * * * >/dev/null\n* * * * * job\n* * * * * job\n* * * * * job\n',
      {
        tz: 'UTC',
        system: false,
      },
    );
    expect(entries.map((e) => e.key)).toEqual(['crontab-line-1', 'job', 'job-2', 'job-3']);
  });
});
