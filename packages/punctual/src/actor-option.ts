// Who a change is recorded as made by: the option every write of the tenant API takes, and its default when
// the caller names nobody. It must never decide anything beyond that name.

/** Who a change is recorded as made by when the caller names nobody. */
export const LIBRARY_ACTOR = 'library';

/** Options every write takes: who makes the change (kept in the schedule's revision). */
export interface ActorOption {
  /** Recorded in the revision; default `library`. */
  actor?: string | null | undefined;
}

/** The actor a write records: the one given (null included), else LIBRARY_ACTOR. */
export function actorOf(opts: ActorOption): string | null {
  return opts.actor === undefined ? LIBRARY_ACTOR : opts.actor;
}
