// What the service knows about its database's storage: healthy, damaged (a statement reported SQLITE_CORRUPT,
// SQLITE_NOTADB or PostgreSQL XX001/XX002) or full (SQLITE_FULL, PostgreSQL 53100). It is told of errors by
// the HTTP error handler and the engine, and of writes that succeeded; it logs once per fault what the
// operator should do. Damage lasts until a restart; a full disk ends with the next write that succeeds. It
// decides nothing about requests itself: the app refuses writes and /readyz reports it.

import { storageFault, type StorageFault } from 'punctual';
import type { Logger } from 'pino';

export interface StorageFaultState {
  kind: StorageFault;
  /** Epoch ms of the first report. */
  since: number;
  /** What was doing the write or read that reported it (a route, or an engine loop). */
  where: string;
}

const ADVICE: Record<StorageFault, string> = {
  corrupt:
    'the database is damaged: writes are refused and /readyz reports not ready. Stop the service, keep a ' +
    'copy of the database file, run `punctual doctor` (it runs SQLite’s integrity check), then restore ' +
    'the latest backup (or rebuild it with `sqlite3 punctual.db .recover`) and start again',
  full:
    'the disk holding the database is full: writes answer 503 STORAGE_FULL and /readyz reports not ready ' +
    'until one succeeds again. Free space on that volume or grow it (`punctual` prunes finished runs by ' +
    'retention; nothing accepted was lost)',
};

export class StorageHealth {
  #fault: StorageFaultState | null = null;
  readonly #corruptListeners: (() => void)[] = [];

  constructor(
    private readonly logger: Logger,
    private readonly now: () => number,
  ) {}

  get fault(): StorageFaultState | null {
    return this.#fault;
  }

  /** Called once when damage is first reported (the service stops its engine). */
  onCorrupt(listener: () => void): void {
    this.#corruptListeners.push(listener);
  }

  /** Records what an error says about the storage; the fault it reports, or null. */
  observe(error: unknown, where: string): StorageFault | null {
    const kind = storageFault(error);
    if (kind === null) return null;
    if (this.#fault?.kind === 'corrupt' || this.#fault?.kind === kind) return kind;
    this.#fault = { kind, since: this.now(), where };
    this.logger.error({ err: error, storage: kind, where }, ADVICE[kind]);
    if (kind === 'corrupt') for (const l of this.#corruptListeners) l();
    return kind;
  }

  /** A write succeeded: a full disk has room again (damage stays until a restart). */
  wrote(): void {
    if (this.#fault?.kind !== 'full') return;
    this.logger.warn(
      { storage: 'ok', fullSince: new Date(this.#fault.since).toISOString() },
      'the database accepts writes again',
    );
    this.#fault = null;
  }
}

export const STORAGE_ADVICE = ADVICE;
