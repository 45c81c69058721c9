// The contract of a target kind's shape: how the value under its key (`{ <kind>: value }`) is validated and
// described. Each kind owns one shape module (`<kind>-shape.ts` beside its driver); the domain's target
// envelope (domain/target.ts) dispatches to it, and the service builds its request schema and OpenAPI
// document from `jsonSchema`. Shape modules are pure: they must never perform I/O, read a clock or import a
// driver (the domain imports them).

import { PunctualError } from '../errors.js';

/**
 * A JSON Schema (2020-12) object, as plain data. It states the types and the structural limits the service
 * checks before the library (an unknown field, a wrong type, a string too long); ranges the library words
 * better (`must be an integer between 100 and 60000`) are left to `parse`, which names the failing field.
 */
export type JsonSchema = { readonly [keyword: string]: unknown };

export interface TargetShape<K extends string, V> {
  readonly kind: K;
  /**
   * Validates the value under the kind's key and returns it normalised. Throws PunctualError (most often
   * SCHEDULE_INVALID) whose `details.field` is the path (`target.<kind>.<field>`). Never performs I/O.
   */
  parse(value: unknown): V;
  /** The value's JSON Schema: the service's request validation and the OpenAPI document derive from it. */
  readonly jsonSchema: JsonSchema;
  /**
   * The operator must turn the kind on explicitly (it runs code on the service's machine): a schedule naming
   * it is refused with TARGET_DISABLED, not SCHEDULE_INVALID, while no driver of it is enabled.
   */
  readonly optIn?: boolean;
}

/** A SCHEDULE_INVALID error naming `target.<kind>[.<field>]`. */
export function shapeInvalid(kind: string, field: string, why: string): PunctualError {
  const path = `target.${kind}${field ? `.${field}` : ''}`;
  return new PunctualError('SCHEDULE_INVALID', `${path} ${why}`, { field: path });
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
