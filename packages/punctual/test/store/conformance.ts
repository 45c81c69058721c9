// The store conformance suite: one behavioural description of the Store contract that every store runs
// unmodified (SQLite in sqlite.test.ts, PostgreSQL in postgres.test.ts). It speaks only the Store
// interface, never SQL, and never reads a clock: instants are fixed and passed as `now`.
//
// Usage: describeStoreConformance('my-store', async () => ({ store, cleanup }));
// `open` is called before every test and must return an empty, usable store (migrate() may be called again).
// Groups for optional parts of the contract (tenancy, key-value, calendars, alerts) are skipped for a store
// that does not have them.

import { afterEach, beforeEach, describe } from 'vitest';
import type { Store } from '../../src/store/store.js';
import { bulkTests } from './conformance/bulk.js';
import { alertTests, hasAlerts } from './conformance/alerts.js';
import { expectationTests } from './conformance/expectations.js';
import { claimTests } from './conformance/claim.js';
import { claimAheadTests } from './conformance/claim-ahead.js';
import { hasKv, kvTests } from './conformance/kv.js';
import { calendarTests, hasCalendars } from './conformance/calendars.js';
import { calendarRevisionTests } from './conformance/calendar-revisions.js';
import type { Ctx } from './conformance/helpers.js';
import { clockTests, tenancyTests } from './conformance/isolation.js';
import { leaseTests } from './conformance/leases.js';
import { materializerTests } from './conformance/materializer.js';
import { overrideTests } from './conformance/overrides.js';
import { revisionTests } from './conformance/revisions.js';
import { creationRevisionTests } from './conformance/creation-revisions.js';
import { runTests } from './conformance/runs.js';
import { rerunTests } from './conformance/reruns.js';
import { scheduleTests } from './conformance/schedules.js';
import { scheduleFieldTests } from './conformance/schedule-fields.js';
import { hasTenancy, statsTests, tenantTests } from './conformance/tenants.js';

const GROUPS = {
  schedules: scheduleTests,
  bulk: bulkTests,
  scheduleFields: scheduleFieldTests,
  materializer: materializerTests,
  claim: claimTests,
  claimAhead: claimAheadTests,
  leases: leaseTests,
  runs: runTests,
  revisions: revisionTests,
  creationRevisions: creationRevisionTests,
  overrides: overrideTests,
  reruns: rerunTests,
  tenancy: tenancyTests,
  clock: clockTests,
  tenants: tenantTests,
  stats: statsTests,
  kv: kvTests,
  calendars: calendarTests,
  calendarRevisions: calendarRevisionTests,
  alerts: alertTests,
  expectations: expectationTests,
} satisfies Record<string, (ctx: Ctx) => void>;

export type ConformanceGroup = keyof typeof GROUPS;

/** Groups of an optional part of the contract: run only for a store that implements it. */
const REQUIRES: Partial<Record<ConformanceGroup, (store: Store) => boolean>> = {
  tenants: hasTenancy,
  kv: hasKv,
  calendars: hasCalendars,
  calendarRevisions: hasCalendars,
  alerts: hasAlerts,
  expectations: hasAlerts,
};

export interface OpenedStore {
  store: Store;
  cleanup: () => Promise<void>;
}

export function describeStoreConformance(
  name: string,
  open: () => Promise<OpenedStore>,
  opts: { only?: readonly ConformanceGroup[] } = {},
): void {
  describe(`store conformance: ${name}`, () => {
    let opened: OpenedStore | undefined;
    const ctx: Ctx = {
      get store(): Store {
        if (opened === undefined) throw new Error('the store is opened before each test');
        return opened.store;
      },
    };

    beforeEach(async () => {
      opened = await open();
      await opened.store.migrate();
    });

    afterEach(async () => {
      const o = opened;
      opened = undefined;
      await o?.cleanup();
    });

    for (const [group, tests] of Object.entries(GROUPS) as [ConformanceGroup, (ctx: Ctx) => void][]) {
      const run = opts.only === undefined || opts.only.includes(group);
      const required = REQUIRES[group];
      (run ? describe : describe.skip)(group, () => {
        if (required !== undefined) {
          beforeEach((test) => {
            const why = `${name} does not implement the optional ${group} part of the contract`;
            if (!required(ctx.store)) test.skip(why);
          });
        }
        tests(ctx);
      });
    }
  });
}
