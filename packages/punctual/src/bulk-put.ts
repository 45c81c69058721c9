// A bulk put: many schedules saved in batches, each batch one store transaction (all of it, or none). Each
// input is validated on its own: an invalid one is refused with its index and error, and the others are
// written. Specs are compiled once per distinct (spec, zone, DST choice) within a batch (a cron without
// endAt once per load). The put rules are the single put's own (the store's putSchedules): "unchanged"
// writes nothing (an input equal to the schedule the batch read is not sent to the store at all), a change
// bumps the version, cancels the old version's pending runs and records a revision with the actor. First
// occurrences are materialised by the materializer, as for a single put. A batch is read and validated while
// the ones before it are written (two writes at once on a store that runs statements at once). A failed write
// ends the call once the writes in flight have ended: the batches before it are written, and the one beside
// it may be (the same load again finds those unchanged). While this instance's materializer is behind, each
// batch first waits for it to catch up (a second at most), so a load does not make due runs late. It must
// never write a refused input.

import { sameDraft, type Schedule, type ScheduleInput } from './domain/schedule.js';
import { batchSpecCompiler, type SpecCompiler } from './domain/timing/spec-compiler.js';
import { PunctualError } from './errors.js';
import type { OccurrenceOverride } from './domain/occurrence-override.js';
import { OVERRIDES_LISTED_MAX, overridesDroppedByChange } from './occurrence-overrides.js';
import { calendarsNamedBy } from './tenant-calendars.js';
import type { PutScheduleRequest } from './store/store.js';
import type { ActorOption, PutResult, TenantApi } from './tenant-api.js';

/** What became of one input of a bulk put. */
export const BULK_OUTCOMES = ['created', 'updated', 'unchanged', 'refused'] as const;
export type BulkOutcome = (typeof BULK_OUTCOMES)[number];

/** Inputs per store transaction unless the caller says otherwise. */
export const BULK_BATCH_SIZE = 2_000;
/** The largest batch a caller may ask for. */
export const BULK_BATCH_MAX = 10_000;

export interface BulkPutItem {
  /** The input's position in the list given (0-based). */
  index: number;
  /** The input's key, or null when it has none that is a string. */
  key: string | null;
  outcome: BulkOutcome;
  /** The schedule as saved (or as found, when unchanged); absent when refused or on a dry run. */
  schedule?: Schedule;
  /** Why it was refused. */
  error?: { code: string; message: string; details?: Record<string, unknown> };
}

export interface BulkPutResult {
  /** One per input, in the order given. */
  items: BulkPutItem[];
  totals: Record<BulkOutcome, number>;
}

export interface BulkPutOptions extends ActorOption {
  /** Inputs per transaction (1 to BULK_BATCH_MAX; default BULK_BATCH_SIZE). */
  batchSize?: number | undefined;
  /** Validate and classify only: the outcomes a put would have, nothing written. */
  dryRun?: boolean | undefined;
  /**
   * Called before each batch is written with how many of its inputs create a schedule (e.g. a quota check);
   * it throws to stop, and then that batch and the ones after it are not written.
   */
  beforeWrite?: ((batch: { creating: number }) => Promise<void> | void) | undefined;
}

/** Saves `inputs` batch by batch; see the module header. Throws only for what is no input's fault. */
export async function putBulk(
  api: TenantApi,
  inputs: readonly unknown[],
  opts: BulkPutOptions = {},
): Promise<BulkPutResult> {
  const size = opts.batchSize ?? BULK_BATCH_SIZE;
  if (!Number.isInteger(size) || size < 1 || size > BULK_BATCH_MAX) {
    throw new PunctualError('SCHEDULE_INVALID', `batchSize must be an integer from 1 to ${BULK_BATCH_MAX}`, {
      field: 'batchSize',
    });
  }
  const items: BulkPutItem[] = [];
  const load: Load = { seen: new Map(), compile: batchSpecCompiler() };
  // Each batch is prepared (read, validated) while the ones before it are being written: the database works
  // while this process validates. The keys of a load are distinct (a repeated one is refused), so no batch
  // reads what a write in flight writes. A store that runs statements at once takes two writes at a time (two
  // server processes: the write is the load's bound), unless a quota check (beforeWrite) must count what the
  // writes before it created; then each write waits for the one before.
  const inFlight = opts.beforeWrite === undefined && api.store.capabilities.concurrentStatements ? 2 : 1;
  const writing: Promise<BulkPutItem[]>[] = [];
  try {
    for (let start = 0; start < inputs.length; start += size) {
      // Runs falling due come first: while this instance's materializer is behind, the next batch waits.
      if (opts.dryRun !== true) await api.materializerCaughtUp();
      const batch = inputs.slice(start, start + size) as ScheduleInput[];
      const prepared = await prepareBatch(api, batch, start, load, opts);
      while (writing.length >= inFlight) items.push(...(await writing.shift()!));
      const write = writeBatch(api, prepared, load, opts);
      // Awaited in order below; until then a failure must not count as unhandled.
      write.catch(() => undefined);
      writing.push(write);
    }
    while (writing.length > 0) items.push(...(await writing.shift()!));
  } catch (e) {
    // No write goes on after the call has failed: the caller may retry the load at once.
    await Promise.allSettled(writing);
    throw e;
  }
  const totals = { created: 0, updated: 0, unchanged: 0, refused: 0 };
  for (const item of items) totals[item.outcome]++;
  return { items, totals };
}

/** What one load keeps across its batches: the keys given so far (index of each) and the spec compiler. */
interface Load {
  seen: Map<string, number>;
  compile: SpecCompiler;
}

/** A batch read and validated, not yet written: an answer per input, and the store requests of the valid ones. */
interface Prepared {
  now: number;
  out: BulkPutItem[];
  /** `same`: sameDraft(existing, draft), computed once per input and handed on (dry run, overrides, store). */
  written: { at: number; existing: Schedule | undefined; same: boolean; req: PutScheduleRequest }[];
}

async function prepareBatch(
  api: TenantApi,
  batch: ScheduleInput[],
  offset: number,
  { seen, compile }: Load,
  opts: BulkPutOptions,
): Promise<Prepared> {
  const now = api.clock.now();
  const keys = batch.map((input) => keyOf(input));
  const found = await findStored(
    api,
    keys.filter((k): k is string => k !== null),
  );
  const calendars = await calendarsNamedBy(api.store, api.tenantId, batch);
  const out: BulkPutItem[] = [];
  const written: Prepared['written'] = [];
  for (const [n, input] of batch.entries()) {
    const index = offset + n;
    const key = keys[n]!;
    try {
      const first = key === null ? undefined : seen.get(key);
      if (first !== undefined) {
        throw new PunctualError('BULK_KEY_DUPLICATE', `key "${key}" was given before, at index ${first}`, {
          key,
          firstIndex: first,
        });
      }
      const existing = key === null ? undefined : found.get(key);
      const req = api.preparePut(input, existing, now, undefined, calendars, compile);
      seen.set(key!, index);
      const same = existing !== undefined && sameDraft(existing, req.draft);
      const comparedWith =
        existing === undefined ? undefined : { scheduleId: existing.id, version: existing.version, same };
      written.push({
        at: n,
        existing,
        same,
        req: {
          ...req,
          comparedWith,
          expectNew: existing === undefined ? true : undefined,
          revision: { actor: opts.actor ?? null },
        },
      });
      out[n] = { index, key, outcome: 'created' };
    } catch (e) {
      if (!(e instanceof PunctualError)) throw e;
      out[n] = { index, key, outcome: 'refused', error: e.toJSON() };
    }
  }
  return { now, out, written };
}

/** Writes a prepared batch in one store transaction (the quota check first) and completes its answers. */
async function writeBatch(
  api: TenantApi,
  { now, out, written }: Prepared,
  { compile }: Load,
  opts: BulkPutOptions,
): Promise<BulkPutItem[]> {
  await opts.beforeWrite?.({ creating: written.filter((w) => w.existing === undefined).length });
  if (opts.dryRun === true) {
    for (const w of written)
      out[w.at]!.outcome = w.existing === undefined ? 'created' : w.same ? 'unchanged' : 'updated';
    return out;
  }
  // An input equal to its stored schedule writes nothing: it is unchanged as found (the store would only read
  // it again to say so; a put that changes it meanwhile comes after this one). The others go to the store,
  // which decides again under its lock.
  const changes: typeof written = [];
  for (const w of written) {
    if (w.existing !== undefined && w.same)
      out[w.at] = { ...out[w.at]!, outcome: 'unchanged', schedule: w.existing };
    else changes.push(w);
  }
  // An update that removes an occurrence drops its override, as a single put does. The overrides of all
  // the batch's changed schedules ahead of now are read at once (most schedules have none).
  const overrides = await overridesOf(
    api,
    changes.flatMap((w) => (w.existing === undefined ? [] : [w.existing.id])),
    now,
  );
  const dropped = changes.map((w) =>
    w.existing === undefined
      ? []
      : overridesDroppedByChange(w.existing, w.req, overrides.get(w.existing.id) ?? [], compile),
  );
  const results = await api.store.putSchedules(
    changes.map((w, i) =>
      dropped[i]!.length === 0 ? w.req : { ...w.req, dropOverrides: dropped[i]!.map((o) => o.instant) },
    ),
  );
  const saved = api.announcePuts(results, dropped);
  changes.forEach((w, i) => {
    const res = saved[i]!;
    out[w.at] = { ...out[w.at]!, outcome: outcomeOf(res), schedule: res.schedule };
  });
  return out;
}

/**
 * The overrides of these schedules at or after `now`, by schedule id, each list by instant and at most
 * OVERRIDES_LISTED_MAX long (what listOccurrenceOverrides gives one schedule), in one read.
 */
async function overridesOf(
  api: TenantApi,
  scheduleIds: string[],
  now: number,
): Promise<Map<string, OccurrenceOverride[]>> {
  const out = new Map<string, OccurrenceOverride[]>();
  if (scheduleIds.length === 0) return out;
  for (const o of await api.store.overridesDue(scheduleIds, now, Number.MAX_SAFE_INTEGER)) {
    const list = out.get(o.scheduleId);
    if (list === undefined) out.set(o.scheduleId, [o]);
    else list.push(o);
  }
  for (const [id, list] of out)
    out.set(id, list.sort((a, b) => a.instant - b.instant).slice(0, OVERRIDES_LISTED_MAX));
  return out;
}

/** The stored schedules with these keys, by key (one read). */
async function findStored(api: TenantApi, keys: string[]): Promise<Map<string, Schedule>> {
  const unique = [...new Set(keys)];
  const found = await api.store.getSchedules(api.tenantId, unique);
  return new Map(found.map((s) => [s.key, s]));
}

function keyOf(input: unknown): string | null {
  const key = typeof input === 'object' && input !== null ? (input as { key?: unknown }).key : undefined;
  return typeof key === 'string' ? key : null;
}

function outcomeOf(res: PutResult): BulkOutcome {
  return res.created ? 'created' : res.changed ? 'updated' : 'unchanged';
}
