// The opaque page cursors of every listing, for both stores: base64url JSON of the last item's sort key.
// Pure: it must never run a statement or read a clock, and never accept a cursor of another shape.

import { PunctualError } from '../../errors.js';

/** The cursor of a page whose last item sorts at `key`. */
export function encodeCursor(key: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

/** Decodes a cursor made by encodeCursor with the given shape; CURSOR_INVALID otherwise. */
export function decodeCursor<T extends readonly (string | number)[]>(
  cursor: string,
  shape: readonly ('string' | 'number')[],
): T {
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    v = undefined;
  }
  if (!Array.isArray(v) || v.length !== shape.length || v.some((x, i) => typeof x !== shape[i])) {
    throw new PunctualError('CURSOR_INVALID', 'the page cursor is not one this listing returned', { cursor });
  }
  return v as unknown as T;
}
