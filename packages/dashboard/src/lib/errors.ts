// Turns the API's error bodies into messages placed next to the field they concern: `details.field` (library
// errors) or `details.issues[].field` (schema validation) is an API path such as `policies.retry.maxAttempts`,
// matched to the nearest form field; anything that names no known field becomes a message for the whole form.

import { isApiError } from '../api.ts';

export interface MappedErrors {
  /** Messages by API path of a known field. */
  fields: Record<string, string>;
  /** A message for the form as a whole, or null when every problem found a field. */
  general: string | null;
}

/** Codes that concern one field even when the error does not name it. */
const CODE_FIELDS: Record<string, string> = {
  SPEC_INVALID: 'spec',
  SPEC_NEVER_FIRES: 'spec',
  TIME_ZONE_UNKNOWN: 'tz',
  BOUNDS_INVALID: 'endAt',
  DST_INVALID: 'dst',
  HANDLER_UNKNOWN: 'target.handler',
  PAYLOAD_INVALID: 'payload',
  TARGET_ADDRESS_REFUSED: 'target.webhook.url',
  SCRIPT_SYNTAX_ERROR: 'target.script.source',
  SCRIPT_TOO_LARGE: 'target.script.source',
};

/** The longest known path that is `path` or one of its parents (`target.webhook.headers.X` → its parent). */
export function nearestField(path: string, known: readonly string[]): string | null {
  // `exclude[0]` (the library's form of an item's path) is the field `exclude`, as `exclude.0` is.
  const parts = path
    .replace(/\[\d+\]/g, '')
    .split('.')
    .filter((p) => p !== '' && !/^\d+$/.test(p));
  for (let n = parts.length; n > 0; n--) {
    const candidate = parts.slice(0, n).join('.');
    if (known.includes(candidate)) return candidate;
  }
  return null;
}

function issueMessage(field: string, message: string): string {
  // The service's messages often start with the field's path; next to the field that is noise.
  const trimmed = message.startsWith(`${field} `) ? message.slice(field.length + 1) : message;
  return trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
}

/** Places an error thrown by the API client onto the form's fields (by API path). */
export function mapApiError(e: unknown, known: readonly string[]): MappedErrors {
  if (!isApiError(e)) return { fields: {}, general: describeError(e) };
  const fields: Record<string, string> = {};
  const unplaced: string[] = [];
  const place = (path: string | undefined, message: string): void => {
    const field = path === undefined ? null : nearestField(path, known);
    if (field !== null && fields[field] === undefined) fields[field] = issueMessage(field, message);
    else if (field === null) unplaced.push(message);
  };
  const d = e.details;
  const where = typeof d.in === 'string' ? d.in : 'body';
  if (e.code === 'VALIDATION_FAILED' && Array.isArray(d.issues) && (where === 'body' || where === 'path')) {
    for (const issue of d.issues as { field?: unknown; message?: unknown }[]) {
      const path = typeof issue.field === 'string' ? issue.field : '';
      const message = typeof issue.message === 'string' ? issue.message : e.message;
      if (path === '') unplaced.push(`${e.message}`);
      else place(path, message);
    }
  } else if (typeof d.field === 'string' && d.field !== '' && where !== 'query' && where !== 'headers') {
    place(d.field, e.message);
  } else if (CODE_FIELDS[e.code] !== undefined) {
    place(CODE_FIELDS[e.code], e.message);
  } else {
    unplaced.push(describeError(e));
  }
  const general = unplaced.length > 0 ? [...new Set(unplaced)].join('; ') : null;
  return { fields, general };
}

/** One line for a status area: what failed and, where it helps, what to do. */
export function describeError(e: unknown): string {
  if (isApiError(e)) {
    switch (e.code) {
      case 'NETWORK':
        return e.message;
      case 'UNAUTHORIZED':
        return 'The API key is not valid (or was revoked). Sign in again.';
      case 'VERSION_CONFLICT': {
        // A calendar's conflict names the calendar (`name`), a schedule's its key.
        const what = e.details.key === undefined && e.details.name !== undefined ? 'calendar' : 'schedule';
        return `Someone changed this ${what} since you opened it. Reload it to see the new version.`;
      }
      case 'RATE_LIMITED':
        return 'Too many requests for this tenant; retrying shortly.';
      default:
        return `${e.message} (${e.code})`;
    }
  }
  if (e instanceof Error) return e.message;
  return String(e);
}
