// What a tenant API is wired to beside its store and clock: the event bus it announces changes on, the
// target drivers its inputs are validated against, and the hooks that wake the engine. Types only: it must
// never hold behaviour.

import type { TargetKind } from './domain/target.js';
import type { EventBus } from './events.js';
import type { TargetDriver } from './targets/target.js';

export interface EngineHooks {
  /** Schedules changed: materialise anything due before `at`. */
  scheduleChanged(at: number | null): void;
  /** Runs were inserted due at `dueAt`. */
  runsInserted(dueAt: number): void;
  /**
   * Resolves when this instance's materializer is not behind (at once when it is not, or it does not run
   * here), or after a bounded wait: a bulk put calls it before each batch, giving way to runs falling due.
   */
  materializerCaughtUp(): Promise<void>;
}

/** The wiring the tenant API's writes announce through and validate against. */
export interface TenantEngine {
  readonly bus: EventBus;
  readonly targets: ReadonlyMap<TargetKind, TargetDriver>;
  readonly hooks: EngineHooks;
}
