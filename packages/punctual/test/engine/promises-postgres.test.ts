// The same promises across instances on one PostgreSQL database: a schedule saved by an API-only process
// wakes the running instances' materializers, a cancel from another process aborts the owning instance's
// delivery, and a pause from another process ends the runs waiting in an instance's buffer. Every clock is
// frozen: nothing here may wait for a timer (the backstop sleep, a lease renewal), only for a signal.
// Needs PUNCTUAL_TEST_PG_URL; without it the suite is skipped, or fails when PUNCTUAL_REQUIRE_SERVICES=1.

import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createScheduler, type Scheduler } from '../../src/scheduler.js';
import { postgresStore, type PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { deferred } from '../support/harness.js';
import { nextEvent } from '../support/events.js';
import { TestClock } from '../support/test-clock.js';

const PG_URL = process.env.PUNCTUAL_TEST_PG_URL ?? '';
const REQUIRED = process.env.PUNCTUAL_REQUIRE_SERVICES === '1';
const START = '2026-01-05T00:00:00.000Z';

let opened: { schedulers: Scheduler[]; schemas: string[] } = { schedulers: [], schemas: [] };

/** An instance on `schema` with its own store and a frozen clock; `api` runs neither materializer nor worker. */
async function instance(schema: string, o: { api?: boolean; concurrency?: number } = {}): Promise<Scheduler> {
  const store = postgresStore({ connectionString: PG_URL, schema });
  const s = createScheduler({
    store,
    clock: new TestClock(START),
    clockSync: { enabled: false },
    concurrency: o.concurrency ?? 10,
    roles: o.api ? { materializer: false, worker: false } : undefined,
  });
  opened.schedulers.push(s);
  if (o.api) await s.migrate();
  else {
    await s.start();
    await (store as PostgresStore).wakeupsReady();
  }
  return s;
}

function freshSchema(): string {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  opened.schemas.push(schema);
  return schema;
}

if (PG_URL === '') {
  describe.skipIf(!REQUIRED)('promises on postgres', () => {
    it('needs PostgreSQL', () => {
      throw new Error('PUNCTUAL_REQUIRE_SERVICES=1 but PUNCTUAL_TEST_PG_URL is not set');
    });
  });
} else {
  afterEach(async () => {
    const { schedulers, schemas } = opened;
    opened = { schedulers: [], schemas: [] };
    // Stop with no grace: the test clocks never move, and deliveries left hanging are handed back.
    await Promise.all(schedulers.map((s) => s.stop({ graceMs: 0 }).then(() => s.store.close())));
    const pg = await import('pg');
    const c = new pg.default.Client({ connectionString: PG_URL });
    await c.connect();
    for (const schema of schemas) await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await c.end();
  });

  describe('promises across instances on postgres', () => {
    it('a one-off saved by an API-only process is materialised at once by a running instance', async () => {
      const schema = freshSchema();
      const api = await instance(schema, { api: true });
      const a = await instance(schema);
      const b = await instance(schema);
      for (const s of [a, b, api]) s.handle('t', () => {});
      const scheduled = Promise.race([nextEvent(a, 'run:scheduled'), nextEvent(b, 'run:scheduled')]);
      await api.put({ key: 'one', spec: '@in 1s', target: { handler: 't' } });
      const { run } = await scheduled;
      expect(run.scheduleKey).toBe('one');
    });

    it('a cancel from another process aborts the delivery on the owning instance at once', async () => {
      const schema = freshSchema();
      const api = await instance(schema, { api: true });
      const aborted = deferred<string>();
      const started = deferred<string>();
      const long = (ctx: { run: { id: string }; signal: AbortSignal }) => {
        ctx.signal.addEventListener('abort', () => aborted.resolve(ctx.run.id));
        started.resolve(ctx.run.id);
        return new Promise(() => {});
      };
      const a = await instance(schema);
      const b = await instance(schema);
      for (const s of [a, b, api]) s.handle('long', long);
      await api.put({ key: 'long', spec: '@yearly', target: { handler: 'long' } });
      const run = await api.trigger('long');
      expect(await started.promise).toBe(run.id);
      await api.cancelRun(run.id);
      expect(await aborted.promise).toBe(run.id);
      expect(a.inFlight + b.inFlight).toBe(0);
    });

    it('cancelPrevious: claiming the next run aborts the previous delivery on the other instance at once', async () => {
      const schema = freshSchema();
      const api = await instance(schema, { api: true });
      const signals: AbortSignal[] = [];
      const started: ((n: number) => void)[] = [];
      const slow = (ctx: { signal: AbortSignal }) => {
        signals.push(ctx.signal);
        started.shift()?.(signals.length);
        return new Promise(() => {});
      };
      const a = await instance(schema);
      const b = await instance(schema);
      for (const s of [a, b, api]) s.handle('slow', slow);
      await api.put({
        key: 'slow',
        spec: '@yearly',
        target: { handler: 'slow' },
        policies: { overlap: 'cancelPrevious', timeoutMs: 3_600_000 },
      });
      const first = new Promise<number>((r) => started.push(r));
      await api.trigger('slow');
      await first;
      const aborted = new Promise<void>((r) => signals[0]!.addEventListener('abort', () => r()));
      const second = new Promise<number>((r) => started.push(r));
      await api.trigger('slow');
      await second;
      await aborted; // no clock moved: not a lease renewal
      expect(signals.map((x) => x.aborted)).toEqual([true, false]);
      const runs = (await api.listRuns({ scheduleKey: 'slow' })).items;
      expect(runs.map((r) => r.state).sort()).toEqual(['cancelled', 'running']);
    });

    it('an overdue schedule that no instance materialises is reported once, by one of two instances', async () => {
      const schema = freshSchema();
      const api = await instance(schema, { api: true });
      api.handle('t', () => {});
      await api.put({ key: 'one', spec: `@at ${START}`, target: { handler: 't' } });
      // Two instances with their materializers off (down or stuck), their clocks a minute later.
      const seen: string[] = [];
      const clocks: TestClock[] = [];
      const checks = [0, 0];
      for (let i = 0; i < 2; i++) {
        const clock = new TestClock(Date.parse(START) + 60_000);
        clocks.push(clock);
        const store = postgresStore({ connectionString: PG_URL, schema });
        const take = store.takeOverdueSchedules.bind(store);
        store.takeOverdueSchedules = async (...args) => {
          const found = await take(...args);
          checks[i]!++;
          return found;
        };
        const s = createScheduler({
          store,
          clock,
          clockSync: { enabled: false },
          notFiredGraceMs: 30_000,
          roles: { materializer: false, worker: true },
        });
        opened.schedulers.push(s);
        s.on('schedule:notFired', (e) => seen.push(`${e.scheduleKey} ${e.run === null}`));
        await s.start();
      }
      // At least three checks on each instance (a check every 5 s of its clock), each on the database.
      for (let i = 0; i < 300 && checks.some((n) => n < 3); i++) {
        for (const c of clocks) await c.advance(5_000);
        await new Promise((r) => setTimeout(r, 10)); // let the checks' queries return
      }
      expect(checks.every((n) => n >= 3)).toBe(true);
      expect(seen).toEqual(['one true']);
    });

    it('a pause from another process ends the occurrences waiting in an instance buffer', async () => {
      const schema = freshSchema();
      const api = await instance(schema, { api: true });
      const a = await instance(schema, { concurrency: 1 });
      const gate = deferred();
      for (const s of [a, api]) {
        s.handle('block', () => gate.promise);
        s.handle('t', () => {});
      }
      await api.put({
        key: 'busy',
        spec: '@yearly',
        target: { handler: 'block' },
        policies: { timeoutMs: 3_600_000 },
      });
      const blocked = nextEvent(a, 'run:started');
      await api.trigger('busy');
      await blocked;
      // Due now on the frozen clocks: claimed into a's buffer behind the busy slot.
      await api.put({ key: 'p', spec: `@at ${START}`, target: { handler: 't' } });
      // No event marks a claim into the buffer: poll the store for it (bounded by real time, not by a count
      // of turns, which a loaded machine can use up before the materializer and the claim have run); elapsed
      // time from the monotonic clock, never the date.
      for (const until = performance.now() + 20_000; performance.now() < until;) {
        if ((await api.listRuns({ scheduleKey: 'p', state: 'running' })).items.length === 1) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      expect((await api.listRuns({ scheduleKey: 'p', state: 'running' })).items).toHaveLength(1);
      const skipped = nextEvent(a, 'run:skipped');
      await api.pause('p');
      expect((await skipped).run).toMatchObject({ scheduleKey: 'p', reason: 'paused', startedAt: null });
      gate.resolve();
      const stored = (await api.listRuns({ scheduleKey: 'p' })).items;
      expect(stored.map((r) => [r.state, r.reason])).toEqual([['skipped', 'paused']]);
    });
  });
}
