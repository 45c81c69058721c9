// The PostgreSQL store's slot modules for the operations it hands to them (store/common/store-ops.ts and
// store-parts.ts): which operation each slot does is written once, in store/common/store-slots.ts. It must
// never run anything itself.

import type { StorePartsOps } from '../common/store-parts.js';
import { slotOps } from '../common/store-slots.js';
import type { PgDb } from './postgres-database.js';
import * as schedules from './postgres-schedules.js';
import * as overrides from './postgres-overrides.js';
import * as revisions from './postgres-revisions.js';
import * as materializer from './postgres-materializer.js';
import * as claim from './postgres-claim.js';
import * as leases from './postgres-leases.js';
import * as rerun from './postgres-rerun.js';
import * as queries from './postgres-queries.js';
import * as tenants from './postgres-tenants.js';
import * as calendars from './postgres-calendars.js';
import * as calendarRevisions from './postgres-calendar-revisions.js';
import * as kv from './postgres-kv.js';
import * as alerts from './postgres-alerts.js';
import * as checks from './postgres-checks.js';
import * as expectations from './postgres-expectations.js';

export const POSTGRES_PARTS: StorePartsOps<PgDb> = slotOps<PgDb>({
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
