// The shape of a script target, `{ "script": { source, timeoutMs?, memoryMb? } }`: its validation and JSON
// Schema. Whether the limits are within the operator's and whether the source compiles is the script driver's
// check at save time. Pure: it must never perform I/O or load the sandbox (the domain imports it).

import { isPlainObject, shapeInvalid, type TargetShape } from '../target-shape.js';

/** Tenant JavaScript run in the sandbox: a module whose default export is called with `ctx`. */
export interface ScriptTarget {
  script: { source: string; timeoutMs?: number; memoryMb?: number };
}

const SCRIPT_FIELDS = ['source', 'timeoutMs', 'memoryMb'];
/** A sanity bound on the source's length; the script driver enforces the operator's (smaller) byte limit. */
const SCRIPT_SOURCE_MAX_CHARS = 1_048_576;

const invalid = (field: string, why: string) => shapeInvalid('script', field, why);

/**
 * Validates a script target's shape: a non-empty source string, and whole positive `timeoutMs` and
 * `memoryMb` when given. Whether they are within the operator's limits, and whether the source compiles,
 * is the script driver's check.
 */
function parseScript(value: unknown): ScriptTarget['script'] {
  if (!isPlainObject(value)) {
    throw invalid('', 'must be an object such as { "source": "export default (ctx) => ctx.payload" }');
  }
  const v = value;
  for (const k of Object.keys(v)) {
    if (!SCRIPT_FIELDS.includes(k)) throw invalid(k, `is not a script field (${SCRIPT_FIELDS.join(', ')})`);
  }
  if (typeof v.source !== 'string' || v.source.trim() === '') {
    throw invalid('source', 'must be a non-empty string of JavaScript');
  }
  if (v.source.length > SCRIPT_SOURCE_MAX_CHARS) {
    throw invalid('source', `must be at most ${SCRIPT_SOURCE_MAX_CHARS} characters`);
  }
  const out: ScriptTarget['script'] = { source: v.source };
  for (const field of ['timeoutMs', 'memoryMb'] as const) {
    const x = v[field];
    if (x === undefined) continue;
    if (typeof x !== 'number' || !Number.isSafeInteger(x) || x < 1) {
      throw invalid(field, 'must be a whole number >= 1');
    }
    out[field] = x;
  }
  return out;
}

export const scriptShape: TargetShape<'script', ScriptTarget['script']> = {
  kind: 'script',
  parse: parseScript,
  jsonSchema: {
    type: 'object',
    properties: {
      source: {
        type: 'string',
        minLength: 1,
        description: 'an ES module whose default export is called with ctx; compiled when saved',
        example: 'export default (ctx) => ctx.payload',
      },
      timeoutMs: { type: 'integer', description: "wall time of a run (up to the operator's maximum)" },
      memoryMb: { type: 'integer', description: "memory of a run (up to the operator's maximum)" },
    },
    required: ['source'],
    additionalProperties: false,
  },
};
