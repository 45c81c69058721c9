// The SQLite store's slot modules for the operations it hands to them (store/common/store-ops.ts and
// store-parts.ts): which operation each slot does is written once, in store/common/store-slots.ts. It must
// never run anything itself.

import type { StorePartsOps } from '../common/store-parts.js';
import { slotOps } from '../common/store-slots.js';
import type { SqliteDatabase } from './sqlite-database.js';
import * as schedules from './sqlite-schedules.js';
import * as overrides from './sqlite-overrides.js';
import * as revisions from './sqlite-revisions.js';
import * as materializer from './sqlite-materializer.js';
import * as claim from './sqlite-claim.js';
import * as leases from './sqlite-leases.js';
import * as rerun from './sqlite-rerun.js';
import * as queries from './sqlite-queries.js';
import * as tenants from './sqlite-tenants.js';
import * as calendars from './sqlite-calendars.js';
import * as calendarRevisions from './sqlite-calendar-revisions.js';
import * as kv from './sqlite-kv.js';
import * as alerts from './sqlite-alerts.js';
import * as checks from './sqlite-checks.js';
import * as expectations from './sqlite-expectations.js';

export const SQLITE_PARTS: StorePartsOps<SqliteDatabase> = slotOps<SqliteDatabase>({
  schedules,
  overrides,
  revisions,
  materializer,
  claim,
  leases,
  rerun,
  queries,
  tenants,
  calendars,
  calendarRevisions,
  kv,
  alerts,
  checks,
  expectations,
});
