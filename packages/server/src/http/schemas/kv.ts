// The key-value routes' shapes in zod: the key in the path, the listing query, an entry and a value. Shape
// only.

import { z } from 'zod';
import { cursor, instant, limit } from './common.js';

const kvKey = z.string().meta({
  description: '1-256 characters, no control characters; percent-encode it in the path',
  example: 'counters/orders',
});

export const kvParams = z.object({ key: kvKey }).strict();

export const listKvQuery = z
  .object({
    prefix: z
      .string()
      .max(256)
      .optional()
      .meta({ description: 'only keys starting with this text (literally: no wildcard)' }),
    cursor,
    limit,
  })
  .strict();

export const kvEntry = z
  .object({
    key: z.string(),
    value: z.unknown().meta({ description: 'the JSON value' }),
    updatedAt: instant,
  })
  .meta({ id: 'KvEntry' });

/** A PUT body is the value itself: any JSON (an object, array, string, number, boolean or null). */
export const kvValue = z.unknown().meta({ id: 'KvValue', description: 'any JSON value, stored as it is' });
