// Declared schedules: the set an application declares in code (`scheduler.handle(name, fn, { schedule })` and
// `scheduler.defineSchedules([...])`) and its reconciliation with the store, which `start()` runs. It owns the
// declared set and the writes that bring the store to it. It must never write before the whole set is
// validated, and never write a schedule this application did not declare (unless told to adopt it).

import {
  DECLARED_BY_LABEL,
  checkOwnership,
  declaredInput,
  orphanNote,
  pausedAsOrphan,
  type OrphanPolicy,
  type ReconcileReport,
} from './domain/declared.js';
import type { Schedule, ScheduleInput } from './domain/schedule.js';
import { PunctualError, isPunctualError } from './errors.js';
import type { PutResult, TenantApi } from './tenant-api.js';

/** A schedule declared with its handler: the target is the handler, the key defaults to its name. */
export type HandlerSchedule = Omit<ScheduleInput, 'key' | 'target'> & { key?: string | undefined };

export interface DeclaredOptions {
  /** The application that declares: stored in the DECLARED_BY_LABEL label of every declared schedule. */
  app: string;
  orphans: OrphanPolicy;
  /** Take over a schedule with a declared key that nobody declared (made by hand or through the API). */
  adopt: boolean;
  /** The options named the declaring application (declared.app): reconcile even an empty set. */
  explicit: boolean;
}

interface Declaration {
  input: ScheduleInput;
  /** Where it was declared, for error messages: `handle("name")` or `defineSchedules[i]`. */
  via: string;
}

/** Attempts of the compare-and-set write when other instances write the same schedules meanwhile. */
const WRITE_TRIES = 5;

/** Schedules read per page while looking for orphans. */
const PAGE = 1000;

/** The schedules one scheduler declares, gathered before start(). */
export class DeclaredSet {
  /** By handler name: registering a handler again replaces its declaration. */
  readonly #byHandler = new Map<string, ScheduleInput>();
  readonly #defined: ScheduleInput[] = [];

  /** The schedule declared with a handler; registering the handler again with another one replaces it. */
  setHandlerSchedule(handler: string, schedule: HandlerSchedule): void {
    this.#byHandler.set(handler, { ...schedule, key: schedule.key ?? handler, target: { handler } });
  }

  define(inputs: readonly ScheduleInput[]): void {
    if (!Array.isArray(inputs)) {
      throw new PunctualError('SCHEDULE_INVALID', 'defineSchedules takes an array of schedules', {
        field: 'schedules',
      });
    }
    this.#defined.push(...inputs);
  }

  get size(): number {
    return this.#byHandler.size + this.#defined.length;
  }

  declarations(): Declaration[] {
    return [
      ...[...this.#byHandler].map(([name, input]) => ({ input, via: `handle("${name}")` })),
      ...this.#defined.map((input, i) => ({ input, via: `defineSchedules[${i}]` })),
    ];
  }
}

/**
 * Brings the store to the declared set: creates what is missing, updates what differs, leaves what is equal
 * untouched (version and pending runs kept), resumes what a reconciliation paused as an orphan, then applies
 * the orphan policy to what this application declared before and no more. Every declaration is validated
 * (and its key's owner checked) before the first write; the declared schedules are written in one
 * transaction, each conditional on what was read, so instances reconciling at once create each one once.
 */
export async function reconcileDeclared(
  api: TenantApi,
  set: DeclaredSet,
  opts: DeclaredOptions,
): Promise<ReconcileReport> {
  const declarations = set.declarations();
  const inputs = declarations.map((d) => withContext(d, () => declaredInput(d.input, opts.app)));
  const seen = new Map<string, string>();
  for (const d of declarations) {
    const key = d.input?.key;
    if (typeof key !== 'string') continue;
    const first = seen.get(key);
    if (first !== undefined) {
      throw new PunctualError(
        'DECLARATION_KEY_DUPLICATE',
        `declared schedule key "${key}" is declared twice: by ${first} and by ${d.via}`,
        { key, declaredBy: [first, d.via] },
      );
    }
    seen.set(key, d.via);
  }
  const results = await writeDeclared(api, declarations, inputs, opts);
  const report: ReconcileReport = {
    tenantId: api.tenantId,
    app: opts.app,
    orphans: opts.orphans,
    created: [],
    updated: [],
    unchanged: [],
    resumed: [],
    removed: [],
    kept: [],
  };
  for (const r of results) {
    const key = r.schedule.key;
    (r.created ? report.created : r.changed ? report.updated : report.unchanged).push(key);
    if (pausedAsOrphan(r.schedule, opts.app)) {
      await api.resume(key);
      report.resumed.push(key);
    }
  }
  for (const s of await declaredBefore(api, opts.app)) {
    if (seen.has(s.key)) continue;
    const done = await removeOrphan(api, s, opts);
    if (done !== 'gone') report[done].push(s.key);
  }
  return report;
}

/** Writes the declared set, again from a fresh read when another instance wrote one of its keys meanwhile. */
async function writeDeclared(
  api: TenantApi,
  declarations: readonly Declaration[],
  inputs: ScheduleInput[],
  opts: DeclaredOptions,
): Promise<PutResult[]> {
  for (let tries = 1; ; tries++) {
    try {
      return await api.putMany(inputs, {
        compareAndSet: true,
        check: (found) => found.forEach((s) => checkOwnership(s, opts.app, opts.adopt)),
      });
    } catch (e) {
      if (isPunctualError(e, 'VERSION_CONFLICT') && tries < WRITE_TRIES) continue;
      const index = isPunctualError(e) ? e.details?.index : undefined;
      const d = typeof index === 'number' ? declarations[index] : undefined;
      if (d === undefined || !isPunctualError(e)) throw e;
      throw new PunctualError(e.code, e.message.replace(/^schedule \d+: /, `${describe(d)}: `), {
        ...e.details,
        key: d.input?.key,
      });
    }
  }
}

/** Runs `fn` for one declaration; an error names the declaration. */
function withContext<T>(d: Declaration, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (!isPunctualError(e)) throw e;
    throw new PunctualError(e.code, `${describe(d)}: ${e.message}`, { ...e.details, key: d.input?.key });
  }
}

function describe(d: Declaration): string {
  const key = d.input?.key;
  return typeof key === 'string' ? `declared schedule "${key}" (${d.via})` : `declared schedule ${d.via}`;
}

/** Every schedule of the tenant that carries this application's declared-by label. */
async function declaredBefore(api: TenantApi, app: string): Promise<Schedule[]> {
  const out: Schedule[] = [];
  let cursor: string | undefined;
  do {
    const page = await api.list({ labels: { [DECLARED_BY_LABEL]: app }, limit: PAGE, cursor });
    out.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return out;
}

/**
 * Applies the orphan policy to one schedule no longer declared. `gone`: another instance reconciling the same
 * set deleted it meanwhile.
 */
async function removeOrphan(
  api: TenantApi,
  s: Schedule,
  opts: DeclaredOptions,
): Promise<'removed' | 'kept' | 'gone'> {
  switch (opts.orphans) {
    case 'keep':
      return 'kept';
    case 'delete':
      return (await api.delete(s.key)) ? 'removed' : 'gone';
    case 'pause':
      if (s.state !== 'active') return 'kept';
      try {
        await api.pause(s.key, { note: orphanNote(opts.app) });
        return 'removed';
      } catch (e) {
        if (isPunctualError(e, 'SCHEDULE_NOT_FOUND')) return 'gone';
        throw e;
      }
  }
}
