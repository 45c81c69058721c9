// Declared schedules: the rules of schedules an application declares in code next to its handlers. This
// module owns the reserved label that marks them, the orphan policies, the note an orphan pause leaves, the
// ownership rule (may this application write this key?) and the reconciliation report's shape.
// It must never perform I/O or read a clock.

import { PunctualError } from '../errors.js';
import { LABEL_VALUE_MAX, type Schedule, type ScheduleInput } from './schedule.js';

/** The label every declared schedule carries: its value names the application that declared it. */
export const DECLARED_BY_LABEL = 'punctual.declared-by';

/**
 * What start() does with a schedule this application declared before and declares no more: leave it as it
 * is (`keep`, the default), pause it (`pause`, resumed if it is declared again) or delete it (`delete`).
 */
export const ORPHAN_POLICIES = ['keep', 'pause', 'delete'] as const;
export type OrphanPolicy = (typeof ORPHAN_POLICIES)[number];

/** The application name used when the scheduler's options name none. */
export const DEFAULT_DECLARING_APP = 'default';

/** The note of a schedule paused because its application no longer declares it. */
export function orphanNote(app: string): string {
  return `no longer declared by ${app}`;
}

/** True when the schedule was paused by a reconciliation because `app` stopped declaring it. */
export function pausedAsOrphan(s: Schedule, app: string): boolean {
  return s.state === 'paused' && s.note === orphanNote(app);
}

/** Checks an application name: a label value (1 to LABEL_VALUE_MAX characters). */
export function checkAppName(app: unknown, field: string): string {
  if (typeof app !== 'string' || app.trim() === '' || app.length > LABEL_VALUE_MAX) {
    throw new PunctualError(
      'SCHEDULE_INVALID',
      `${field} must be a non-empty string of at most ${LABEL_VALUE_MAX} characters`,
      { field },
    );
  }
  return app;
}

/**
 * The input a declaration is saved as: the user's input with the declared-by label added. SCHEDULE_INVALID
 * when the user set the reserved label, SPEC_INVALID for `@in` (it would move at every start).
 */
export function declaredInput(input: ScheduleInput, app: string): ScheduleInput {
  if (typeof input !== 'object' || input === null) return input;
  const labels: unknown = input.labels;
  // Labels that are not an object are left for the schedule's validation to refuse.
  if (labels !== undefined && labels !== null && (typeof labels !== 'object' || Array.isArray(labels)))
    return input;
  if (labels !== undefined && labels !== null && DECLARED_BY_LABEL in labels) {
    throw new PunctualError('SCHEDULE_INVALID', `the label ${DECLARED_BY_LABEL} is reserved`, {
      field: 'labels',
    });
  }
  if (typeof input.spec === 'string' && /^\s*@in\b/i.test(input.spec)) {
    throw new PunctualError(
      'SPEC_INVALID',
      'a declared schedule cannot use @in (it would move at every start): use @at <instant>',
      { field: 'spec' },
    );
  }
  const own = (labels ?? {}) as Record<string, string>;
  return { ...input, labels: { ...own, [DECLARED_BY_LABEL]: app } };
}

/**
 * Whether `app` may write its declaration over the stored schedule with the same key: yes when it declared
 * it, or when nobody did and `adopt` is set. DECLARATION_KEY_TAKEN otherwise (details.owner: the other
 * application, null when the schedule was made by hand or through the API).
 */
export function checkOwnership(existing: Schedule | undefined, app: string, adopt: boolean): void {
  if (existing === undefined) return;
  const owner = existing.labels[DECLARED_BY_LABEL];
  if (owner === app || (owner === undefined && adopt)) return;
  throw new PunctualError(
    'DECLARATION_KEY_TAKEN',
    owner === undefined
      ? `schedule "${existing.key}" exists and was not declared by an application: delete it, label it ${DECLARED_BY_LABEL}: ${app}, or set declared.adopt`
      : `schedule "${existing.key}" is declared by application "${owner}", not "${app}"`,
    { key: existing.key, owner: owner ?? null, app },
  );
}

/** What one reconciliation of the declared schedules did, by key (the counts are the lengths). */
export interface ReconcileReport {
  tenantId: string;
  app: string;
  orphans: OrphanPolicy;
  /** Declared and missing: created (version 1). */
  created: string[];
  /** Declared with other content than stored (or adopted): updated, version bumped. */
  updated: string[];
  /** Declared as stored: nothing written, version and pending runs kept. */
  unchanged: string[];
  /** Declared again after a reconciliation paused them as orphans: resumed. */
  resumed: string[];
  /** Declared before, not any more: deleted or paused (per `orphans`). */
  removed: string[];
  /** Declared before, not any more, and left as they are (`orphans: 'keep'`, or paused already). */
  kept: string[];
}
