// Whether the engine can use its database right now, as its loops find out: a loop round that fails with an
// outage error (store/database-outage.ts) starts an outage, and it ends when every loop that failed so has
// completed a round again. It emits `database:unavailable` once per outage and `database:available` with its
// length. It never retries anything itself (each loop backs off and retries) and never reads the wall clock
// directly: time comes from the engine's clock.

import type { Clock } from '../clock.js';
import type { EventBus } from '../events.js';
import { databaseOutage, type DatabaseOutage } from '../store/database-outage.js';

export interface DatabaseOutageState {
  kind: DatabaseOutage;
  /** Epoch ms (engine clock) of the first failed round. */
  since: number;
  /** The loop whose round failed first. */
  where: string;
}

export class DatabaseHealth {
  #outage: DatabaseOutageState | null = null;
  /** Loops whose last round failed with an outage error. */
  readonly #failing = new Set<string>();

  constructor(
    private readonly clock: Clock,
    private readonly bus: EventBus,
  ) {
    bus.on('error', ({ error, where }) => this.failed(error, where));
    bus.on('loop:recovered', ({ where }) => this.recovered(where));
  }

  /** The outage going on, or null while the database answers. */
  get outage(): DatabaseOutageState | null {
    return this.#outage;
  }

  /** A round of `where` failed: an outage starts when the error says the database is unavailable. */
  failed(error: unknown, where: string): void {
    const kind = databaseOutage(error);
    if (kind === null) return;
    this.#failing.add(where);
    if (this.#outage !== null) {
      // The kind a server answers with is the most telling: refused writes outrank a cut connection.
      if (kind === 'readOnly') this.#outage.kind = kind;
      return;
    }
    this.#outage = { kind, since: this.clock.now(), where };
    this.bus.emit('database:unavailable', { ...this.#outage });
  }

  /** A round of `where` succeeded after failing: the outage ends when no loop is failing any more. */
  recovered(where: string): void {
    this.#failing.delete(where);
    if (this.#outage === null || this.#failing.size > 0) return;
    const { kind, since } = this.#outage;
    this.#outage = null;
    this.bus.emit('database:available', { kind, since, durationMs: Math.max(0, this.clock.now() - since) });
  }

  /** The engine stopped: a stopped loop cannot report its recovery. */
  reset(): void {
    this.#failing.clear();
    this.#outage = null;
  }
}
