// The id a webhook or broker message carries for a run: by default the run's occurrence id, or an id
// template of the target (`idTemplate: "{key}-{scheduledForSeconds}"`) so that consumers of another emitter
// keep their dedup keys. This module owns the placeholders, the template's validation (when a schedule is
// saved) and its rendering. Pure: it must never perform I/O or read a clock.

import { PunctualError } from '../errors.js';
import type { Run } from './run.js';

/** Every placeholder an id template may use, each as `{name}`. */
export const ID_TEMPLATE_PLACEHOLDERS = [
  'key',
  'scheduleId',
  'scheduledFor',
  'scheduledForSeconds',
  'scheduledForIso',
  'occurrenceId',
  'runId',
  'tenant',
] as const;
export type IdTemplatePlaceholder = (typeof ID_TEMPLATE_PLACEHOLDERS)[number];

/** The JSON Schema of a target's `idTemplate` field (the placeholders are checked by parseIdTemplate). */
export const ID_TEMPLATE_JSON_SCHEMA = {
  type: 'string',
  description: `the message id as a template (default: the occurrence id); placeholders: ${ID_TEMPLATE_PLACEHOLDERS.map((p) => `{${p}}`).join(', ')}`,
  example: '{key}-{scheduledForSeconds}',
} as const;

/** At most this many characters of template. */
export const ID_TEMPLATE_MAX = 200;

/** Literal text allowed around placeholders: safe in a header, a NATS message id and a Redis field. */
const LITERAL = /^[A-Za-z0-9._:@/+=-]*$/;
const PLACEHOLDER = /\{([^{}]*)\}/g;

function invalid(field: string, why: string, extra: Record<string, string> = {}): PunctualError {
  return new PunctualError('ID_TEMPLATE_INVALID', `${field} ${why}`, { field, ...extra });
}

/**
 * Validates an id template: 1-200 characters, at least one placeholder, every placeholder known, literal
 * text of letters, digits and . _ : @ / + = - only. Returns it unchanged. ID_TEMPLATE_INVALID otherwise.
 */
export function parseIdTemplate(v: unknown, field: string): string {
  if (typeof v !== 'string' || v.length === 0) throw invalid(field, 'must be a non-empty string');
  if (v.length > ID_TEMPLATE_MAX) throw invalid(field, `must be at most ${ID_TEMPLATE_MAX} characters`);
  const names = [...v.matchAll(PLACEHOLDER)].map((m) => m[1]!);
  for (const name of names) {
    if (!(ID_TEMPLATE_PLACEHOLDERS as readonly string[]).includes(name)) {
      throw invalid(
        field,
        `has an unknown placeholder {${name.slice(0, 40)}} (known: ${ID_TEMPLATE_PLACEHOLDERS.map((p) => `{${p}}`).join(', ')})`,
        { placeholder: name.slice(0, 40) },
      );
    }
  }
  if (names.length === 0) {
    throw invalid(field, 'must hold at least one placeholder, such as {key}-{scheduledForSeconds}');
  }
  if (!LITERAL.test(v.replace(PLACEHOLDER, ''))) {
    throw invalid(field, 'may hold only placeholders and letters, digits and . _ : @ / + = -');
  }
  return v;
}

/** The message id of a run: the template filled in, or the occurrence id when there is no template. */
export function messageId(
  template: string | undefined,
  run: Pick<Run, 'scheduleKey' | 'scheduleId' | 'scheduledFor' | 'occurrenceId' | 'id' | 'tenantId'>,
): string {
  if (template === undefined) return run.occurrenceId;
  const values: Record<IdTemplatePlaceholder, string> = {
    key: run.scheduleKey,
    scheduleId: run.scheduleId,
    scheduledFor: String(run.scheduledFor),
    scheduledForSeconds: String(Math.floor(run.scheduledFor / 1000)),
    scheduledForIso: new Date(run.scheduledFor).toISOString(),
    occurrenceId: run.occurrenceId,
    runId: run.id,
    tenant: run.tenantId,
  };
  return template.replace(PLACEHOLDER, (_, name: string) => values[name as IdTemplatePlaceholder]);
}
