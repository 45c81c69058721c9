// The shape of a handler target, `{ "handler": "name" }`: a non-empty name of at most 200 characters.
// Whether a handler of that name is registered is the handler driver's check. Pure: no I/O.

import { PunctualError } from '../errors.js';
import type { TargetShape } from './target-shape.js';

export interface HandlerTarget {
  handler: string;
}

export const HANDLER_NAME_MAX = 200;

export const handlerShape: TargetShape<'handler', string> = {
  kind: 'handler',
  parse(value) {
    if (typeof value !== 'string' || value.length === 0 || value.length > HANDLER_NAME_MAX) {
      throw new PunctualError('SCHEDULE_INVALID', 'target.handler must be a non-empty name', {
        field: 'target.handler',
      });
    }
    return value;
  },
  jsonSchema: { type: 'string', minLength: 1, maxLength: HANDLER_NAME_MAX },
};
