// Per-occurrence overrides: skip one occurrence, move it to another instant, or give it another payload,
// addressed by its nominal `scheduledFor`. This module owns the one list of override kinds, the validation
// of an override's input and what an override does to the run of its occurrence. Pure: it must never perform
// I/O or read a clock (`now` is given).

import { PunctualError } from '../errors.js';
import type { Json } from './json.js';
import type { RunReason } from './run.js';
import { checkPayload, parseInstant } from './schedule.js';

/** Every kind of override, the single list the API schemas, the CLI and the dashboard derive from. */
export const OVERRIDE_KINDS = ['skip', 'move', 'payload'] as const;
export type OverrideKind = (typeof OVERRIDE_KINDS)[number];

/** How far ahead of now an override may address an occurrence (the search horizon of the check). */
export const OVERRIDE_HORIZON_MS = 400 * 24 * 3600_000;
/** Longest note kept with an override. */
export const OVERRIDE_NOTE_MAX = 500;

/** One stored override of one occurrence (schedule, instant). */
export interface OccurrenceOverride {
  tenantId: string;
  scheduleId: string;
  /** The occurrence's nominal instant (its scheduledFor, the identity of its run). */
  instant: number;
  kind: OverrideKind;
  /** `move`: the instant the run is due at instead. */
  moveTo: number | null;
  /** `payload`: the payload the run carries instead of the schedule's. */
  payload: Json | null;
  note: string | null;
  createdAt: number;
}

/** What a caller asks for; validated by parseOverrideInput. */
export interface OverrideInput {
  kind: OverrideKind;
  /** ISO-8601 or epoch ms (`move` only). */
  moveTo?: string | number | Date | null | undefined;
  payload?: Json | undefined;
  note?: string | null | undefined;
}

function invalid(field: string, message: string, extra: Record<string, Json> = {}): PunctualError {
  return new PunctualError('OVERRIDE_INVALID', `${field} ${message}`, { field, ...extra });
}

/** Validates an override's input for the occurrence at `instant`; OVERRIDE_INVALID names the field. */
export function parseOverrideInput(
  input: unknown,
  instant: number,
  now: number,
): Pick<OccurrenceOverride, 'kind' | 'moveTo' | 'payload' | 'note'> {
  if (typeof input !== 'object' || input === null) throw invalid('override', 'must be an object');
  const o = input as Record<string, unknown>;
  if (!(OVERRIDE_KINDS as readonly unknown[]).includes(o.kind)) {
    throw invalid('kind', `must be one of ${OVERRIDE_KINDS.join(', ')}`);
  }
  const kind = o.kind as OverrideKind;
  let note: string | null = null;
  if (o.note !== undefined && o.note !== null) {
    if (typeof o.note !== 'string' || o.note.length > OVERRIDE_NOTE_MAX) {
      throw invalid('note', `must be a string of at most ${OVERRIDE_NOTE_MAX} characters`);
    }
    note = o.note;
  }
  let moveTo: number | null = null;
  if (kind === 'move') {
    try {
      moveTo = parseInstant(o.moveTo, 'moveTo');
    } catch {
      throw invalid('moveTo', 'must be an ISO-8601 instant or epoch milliseconds');
    }
    if (moveTo === null) throw invalid('moveTo', 'is required to move an occurrence');
    if (moveTo <= now) throw invalid('moveTo', 'must be in the future');
    if (moveTo === instant) throw invalid('moveTo', 'must differ from the occurrence');
  } else if (o.moveTo !== undefined && o.moveTo !== null) {
    throw invalid('moveTo', 'is only for a move');
  }
  let payload: Json | null = null;
  if (kind === 'payload') {
    // null would read as "the schedule's payload" on the run, so an override must give one.
    if (o.payload === undefined || o.payload === null) throw invalid('payload', 'is required (not null)');
    try {
      checkPayload(o.payload);
    } catch (e) {
      throw invalid('payload', e instanceof Error ? e.message : 'is not valid JSON');
    }
    payload = o.payload as Json;
  } else if (o.payload !== undefined) {
    throw invalid('payload', 'is only for a payload override');
  }
  return { kind, moveTo, payload, note };
}

/** The fields of a run that an override decides. */
export interface OverriddenRun {
  state: 'scheduled' | 'skipped';
  dueAt: number;
  expiresAt: number | null;
  payload: Json | null;
  reason: RunReason | null;
  details: Record<string, Json> | null;
}

/**
 * The run of an occurrence under its override. `plain` is the run without any override (due at its
 * scheduledFor plus jitter): a skip records it as skipped, a move makes it due at `moveTo` (its deadline moves
 * with it), a payload override gives it the payload. Each carries reason `override` and what was done in
 * `details.override` (with `from`/`to` for a move), so history says why.
 */
export function overriddenRun(
  plain: OverriddenRun,
  o: Pick<OccurrenceOverride, 'instant' | 'kind' | 'moveTo' | 'payload' | 'note'>,
): OverriddenRun {
  const details: Record<string, Json> = { override: o.kind };
  if (o.note !== null) details.note = o.note;
  switch (o.kind) {
    case 'skip':
      return { ...plain, state: 'skipped', dueAt: o.instant, expiresAt: null, reason: 'override', details };
    case 'move': {
      const to = o.moveTo!;
      return {
        ...plain,
        dueAt: to,
        expiresAt: plain.expiresAt === null ? null : plain.expiresAt - o.instant + to,
        reason: 'override',
        details: { ...details, from: o.instant, to },
      };
    }
    case 'payload':
      return { ...plain, payload: o.payload, reason: 'override', details };
  }
}

/** OCCURRENCE_UNKNOWN: `instant` is not an occurrence of the schedule. */
export function occurrenceUnknown(key: string, instant: number, why: string): PunctualError {
  return new PunctualError('OCCURRENCE_UNKNOWN', `${new Date(instant).toISOString()} ${why} of "${key}"`, {
    field: 'instant',
    key,
    instant,
  });
}

/** OCCURRENCE_STARTED: the occurrence's run is running or final; an override can no longer change it. */
export function occurrenceStarted(key: string, instant: number, state: string): PunctualError {
  return new PunctualError(
    'OCCURRENCE_STARTED',
    `the occurrence ${new Date(instant).toISOString()} of "${key}" is already ${state}`,
    { key, instant, state },
  );
}
