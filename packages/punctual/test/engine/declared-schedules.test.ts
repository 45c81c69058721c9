// Declared schedules on SQLite: start() creates what the application declares with its handlers or in
// defineSchedules, leaves what is equal untouched across restarts (versions and pending runs kept), updates
// exactly what changed, applies the orphan policy to what it no longer declares (and only to that), refuses
// bad declarations before writing anything, and two schedulers on one file starting at once create each
// schedule once.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ReconcileReport } from '../../src/domain/declared.js';
import type { SchedulerOptions } from '../../src/options.js';
import type { Scheduler } from '../../src/scheduler.js';
import { createScheduler } from '../../src/scheduler.js';
import { rejectsWithCode } from '../store/conformance/helpers.js';
import { collect } from '../support/events.js';
import { harness, iso, type Harness } from '../support/harness.js';

let dir: string;
let open: Harness[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'punctual-declared-'));
});

afterEach(async () => {
  const all = open;
  open = [];
  for (const h of all) await h.close();
  rmSync(dir, { recursive: true, force: true });
});

const START = '2026-01-05T00:00:00.000Z';

/** A scheduler on the test's SQLite file, not started, with its reconciliation reports recorded. */
async function instance(
  declare: (s: Scheduler) => void,
  opts: SchedulerOptions & { start?: string } = {},
): Promise<{ h: Harness; reports: ReconcileReport[] }> {
  const h = await harness({ path: join(dir, 'punctual.db'), noStart: true, start: START, ...opts });
  open.push(h);
  const reports = collect(h.s, 'schedules:reconciled');
  declare(h.s);
  return { h, reports };
}

async function close(h: Harness): Promise<void> {
  open = open.filter((x) => x !== h);
  await h.close();
}

/** The billing application's declarations; `change` replaces the export's spec. */
function billing(s: Scheduler, o: { exportSpec?: string; withSync?: boolean } = {}): void {
  s.handle('nightly-export', () => {}, {
    schedule: { spec: o.exportSpec ?? '*/5 * * * *', tz: 'Europe/Paris', payload: { format: 'csv' } },
  });
  s.handle('invoice', () => {}, {
    schedule: { key: 'monthly-invoices', spec: '0 6 1 * *', policies: { overlap: 'skip' } },
  });
  s.handle('sync', () => {});
  if (o.withSync !== false) {
    s.defineSchedules([{ key: 'rates-sync', spec: '@every 1h', target: { handler: 'sync' } }]);
  }
}

const KEYS = ['monthly-invoices', 'nightly-export', 'rates-sync'];

async function versions(s: Scheduler): Promise<Record<string, [number, string]>> {
  const page = await s.list({ limit: 100 });
  return Object.fromEntries(page.items.map((x) => [x.key, [x.version, x.state]]));
}

describe('declared schedules (SQLite)', () => {
  it('creates the declared set on start: key from the handler name, target the handler, labelled', async () => {
    const { h, reports } = await instance((s) => billing(s), { declared: { app: 'billing' } });
    await h.s.start();
    expect(reports).toEqual([
      {
        tenantId: 'default',
        app: 'billing',
        orphans: 'keep',
        created: ['nightly-export', 'monthly-invoices', 'rates-sync'],
        updated: [],
        unchanged: [],
        resumed: [],
        removed: [],
        kept: [],
      },
    ]);
    const exp = await h.s.require('nightly-export');
    expect(exp).toMatchObject({
      version: 1,
      state: 'active',
      target: { handler: 'nightly-export' },
      tz: 'Europe/Paris',
      payload: { format: 'csv' },
      labels: { 'punctual.declared-by': 'billing' },
    });
    expect((await h.s.require('monthly-invoices')).target).toEqual({ handler: 'invoice' });
    expect((await h.s.require('monthly-invoices')).policies.overlap).toBe('skip');
  });

  it('a restart with the same declarations changes nothing: versions and pending runs kept', async () => {
    const first = await instance((s) => billing(s), { declared: { app: 'billing' } });
    await first.h.s.start();
    await first.h.clock.set('2026-01-05T00:04:55Z'); // the 00:05 export is written (look-ahead)
    const pending = (await first.h.s.listRuns({ state: 'scheduled' })).items;
    expect(pending.map((r) => [r.scheduleKey, iso(r.scheduledFor)])).toContainEqual([
      'nightly-export',
      '2026-01-05T00:05:00.000Z',
    ]);
    const before = await versions(first.h.s);
    await close(first.h);

    const again = await instance((s) => billing(s), {
      declared: { app: 'billing' },
      start: '2026-01-05T00:04:57Z',
    });
    await again.h.s.start();
    expect(again.reports[0]).toMatchObject({ created: [], updated: [], removed: [], kept: [] });
    expect(again.reports[0]!.unchanged.slice().sort()).toEqual(KEYS);
    expect(await versions(again.h.s)).toEqual(before);
    expect(again.h.of('run:cancelled')).toEqual([]);
    const still = (await again.h.s.listRuns({ state: 'scheduled' })).items;
    expect(still.map((r) => r.id).sort()).toEqual(pending.map((r) => r.id).sort());
    // The kept run is the one that fires.
    await again.h.clock.set('2026-01-05T00:05:01Z');
    const ran = await again.h.s.getRun(pending.find((r) => r.scheduleKey === 'nightly-export')!.id);
    expect(ran?.run.state).toBe('succeeded');
  });

  it('a changed declaration bumps exactly that schedule and replaces its pending runs', async () => {
    const first = await instance((s) => billing(s), { declared: { app: 'billing' } });
    await first.h.s.start();
    await first.h.clock.set('2026-01-05T00:04:55Z');
    await close(first.h);

    const changed = await instance((s) => billing(s, { exportSpec: '*/10 * * * *' }), {
      declared: { app: 'billing' },
      start: '2026-01-05T00:04:57Z',
    });
    await changed.h.s.start();
    expect(changed.reports[0]).toMatchObject({ created: [], updated: ['nightly-export'] });
    expect(await versions(changed.h.s)).toEqual({
      'monthly-invoices': [1, 'active'],
      'nightly-export': [2, 'active'],
      'rates-sync': [1, 'active'],
    });
    expect(changed.h.of('run:cancelled').map((e) => [e.run.scheduleKey, e.run.reason])).toEqual([
      ['nightly-export', 'updated'],
    ]);
  });

  for (const [orphans, expected] of [
    ['delete', undefined],
    ['pause', 'paused'],
    ['keep', 'active'],
  ] as const) {
    it(`a schedule no longer declared is handled per orphans: ${orphans}; others' are untouched`, async () => {
      const first = await instance((s) => billing(s), { declared: { app: 'billing' } });
      await first.h.s.start();
      // Not this application's: made by hand, and declared by another application.
      await first.h.s.put({ key: 'by-hand', spec: '0 * * * *', target: { handler: 'sync' } });
      await first.h.s.put({
        key: 'reports-app',
        spec: '0 * * * *',
        target: { handler: 'sync' },
        labels: { 'punctual.declared-by': 'reports' },
      });
      await close(first.h);

      const next = await instance((s) => billing(s, { withSync: false }), {
        declared: { app: 'billing', orphans },
      });
      await next.h.s.start();
      expect(next.reports[0]).toMatchObject({
        orphans,
        unchanged: ['nightly-export', 'monthly-invoices'],
        removed: orphans === 'keep' ? [] : ['rates-sync'],
        kept: orphans === 'keep' ? ['rates-sync'] : [],
      });
      const sync = await next.h.s.get('rates-sync');
      expect(sync?.state).toBe(expected);
      if (orphans === 'pause') expect(sync?.note).toBe('no longer declared by billing');
      for (const key of ['by-hand', 'reports-app']) expect((await next.h.s.require(key)).version).toBe(1);
      expect((await next.h.s.require('by-hand')).state).toBe('active');
      expect((await next.h.s.require('reports-app')).state).toBe('active');
    });
  }

  it('a schedule paused as an orphan is resumed when it is declared again; an operator pause is kept', async () => {
    const opts = { declared: { app: 'billing', orphans: 'pause' as const } };
    const first = await instance((s) => billing(s), opts);
    await first.h.s.start();
    await first.h.s.pause('monthly-invoices', { note: 'quarter close' });
    await close(first.h);
    const without = await instance((s) => billing(s, { withSync: false }), opts);
    await without.h.s.start();
    await close(without.h);
    const back = await instance((s) => billing(s), opts);
    await back.h.s.start();
    expect(back.reports[0]).toMatchObject({ resumed: ['rates-sync'], removed: [], kept: [] });
    expect(await versions(back.h.s)).toEqual({
      'monthly-invoices': [1, 'paused'],
      'nightly-export': [1, 'active'],
      'rates-sync': [1, 'active'],
    });
  });

  it('two schedulers on one SQLite file starting at once create each schedule once, at version 1', async () => {
    // An RRULE without DTSTART takes its creation instant as DTSTART: the clocks differ by two minutes, so
    // the instance that finds the schedule created must read the stored one again, not write its own.
    const declare = (s: Scheduler) => {
      billing(s);
      s.defineSchedules([{ key: 'standup', spec: 'FREQ=DAILY;BYHOUR=9', target: { handler: 'sync' } }]);
    };
    const a = await instance(declare, { declared: { app: 'billing' } });
    const b = await instance(declare, { declared: { app: 'billing' }, start: '2026-01-05T00:02:00Z' });
    await Promise.all([a.h.s.start(), b.h.s.start()]);
    const all = [...KEYS, 'standup'];
    expect([...a.reports[0]!.created, ...b.reports[0]!.created].sort()).toEqual(all);
    expect([...a.reports[0]!.unchanged, ...b.reports[0]!.unchanged].sort()).toEqual(all);
    expect([...a.reports, ...b.reports].flatMap((r) => r.updated)).toEqual([]);
    expect(await versions(a.h.s)).toEqual({
      'monthly-invoices': [1, 'active'],
      'nightly-export': [1, 'active'],
      'rates-sync': [1, 'active'],
      standup: [1, 'active'],
    });
  });

  describe('bad declarations fail start() before anything is written', () => {
    const cases: [string, (s: Scheduler) => void, string, Record<string, unknown>][] = [
      [
        'a bad spec',
        (s) => s.handle('bad', () => {}, { schedule: { spec: '61 * * * *' } }),
        'SPEC_INVALID',
        { key: 'bad' },
      ],
      [
        'a duplicate key',
        (s) => s.defineSchedules([{ key: 'nightly-export', spec: '@daily', target: { handler: 'sync' } }]),
        'DECLARATION_KEY_DUPLICATE',
        { key: 'nightly-export' },
      ],
      [
        'a handler that does not exist',
        (s) => s.defineSchedules([{ key: 'x', spec: '@daily', target: { handler: 'nope' } }]),
        'HANDLER_UNKNOWN',
        { key: 'x', handler: 'nope' },
      ],
      [
        'the reserved label',
        (s) =>
          s.defineSchedules([
            {
              key: 'x',
              spec: '@daily',
              target: { handler: 'sync' },
              labels: { 'punctual.declared-by': 'x' },
            },
          ]),
        'SCHEDULE_INVALID',
        { key: 'x', field: 'labels' },
      ],
      [
        'labels that are not an object',
        (s) =>
          s.defineSchedules([
            { key: 'x', spec: '@daily', target: { handler: 'sync' }, labels: 'x' as never },
          ]),
        'SCHEDULE_INVALID',
        { key: 'x', field: 'labels' },
      ],
      [
        'a relative one-off (@in)',
        (s) => s.defineSchedules([{ key: 'x', spec: '@in 5m', target: { handler: 'sync' } }]),
        'SPEC_INVALID',
        { key: 'x' },
      ],
    ];
    for (const [name, declare, code, details] of cases) {
      it(name, async () => {
        const { h, reports } = await instance(
          (s) => {
            billing(s);
            declare(s);
          },
          { declared: { app: 'billing', orphans: 'delete' } },
        );
        expect(await rejectsWithCode(h.s.start(), code)).toMatchObject(details);
        expect(h.s.started).toBe(false);
        expect(reports).toEqual([]);
        expect((await h.s.list()).items).toEqual([]);
      });
    }

    it("a key taken by a schedule made by hand, or by another application's", async () => {
      const setup = await instance(() => {});
      await setup.h.s.migrate();
      setup.h.s.handle('sync', () => {});
      await setup.h.s.put({ key: 'nightly-export', spec: '0 * * * *', target: { handler: 'sync' } });
      await close(setup.h);

      const { h } = await instance((s) => billing(s), { declared: { app: 'billing', orphans: 'delete' } });
      expect(await rejectsWithCode(h.s.start(), 'DECLARATION_KEY_TAKEN')).toMatchObject({
        key: 'nightly-export',
        owner: null,
      });
      expect((await h.s.list()).items.map((s) => [s.key, s.version])).toEqual([['nightly-export', 1]]);
      await h.s.put({
        key: 'nightly-export',
        spec: '0 * * * *',
        target: { handler: 'sync' },
        labels: { 'punctual.declared-by': 'reports' },
      });
      expect(await rejectsWithCode(h.s.start(), 'DECLARATION_KEY_TAKEN')).toMatchObject({
        owner: 'reports',
      });
      expect((await h.s.list()).items.map((s) => s.key)).toEqual(['nightly-export']);
    });
  });

  it('adopt takes over a schedule made by hand with a declared key', async () => {
    const setup = await instance(() => {});
    await setup.h.s.migrate();
    setup.h.s.handle('sync', () => {});
    await setup.h.s.put({ key: 'nightly-export', spec: '0 * * * *', target: { handler: 'sync' } });
    await close(setup.h);
    const { h, reports } = await instance((s) => billing(s), { declared: { app: 'billing', adopt: true } });
    await h.s.start();
    expect(reports[0]?.updated).toEqual(['nightly-export']);
    expect(await h.s.require('nightly-export')).toMatchObject({
      version: 2,
      target: { handler: 'nightly-export' },
      labels: { 'punctual.declared-by': 'billing' },
    });
  });

  it('declaring after start() is refused; orphans other than keep need the application named', async () => {
    const { h } = await instance((s) => billing(s));
    await h.s.start();
    expect(() => h.s.defineSchedules([])).toThrow(
      expect.objectContaining({ code: 'DECLARATION_AFTER_START' }),
    );
    expect(() => h.s.handle('late', () => {}, { schedule: { spec: '@daily' } })).toThrow(
      expect.objectContaining({ code: 'DECLARATION_AFTER_START' }),
    );
    expect(() => createScheduler({ declared: { orphans: 'delete' }, store: h.s.store })).toThrow(
      expect.objectContaining({ code: 'SCHEDULE_INVALID', details: { field: 'declared.app' } }),
    );
  });
});
