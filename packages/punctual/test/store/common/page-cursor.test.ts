// Page cursors, shared by both stores: what encodeCursor makes decodes to the same key; anything else, or a
// cursor of another shape, is CURSOR_INVALID.

import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../../../src/store/common/page-cursor.js';

describe('page cursor', () => {
  it('decodes what it encoded', () => {
    expect(decodeCursor(encodeCursor([12, 'k']), ['number', 'string'])).toEqual([12, 'k']);
  });

  it('refuses a cursor of another shape or none at all', () => {
    for (const bad of [encodeCursor(['12']), encodeCursor([1, 2]), 'not a cursor', ''])
      expect(() => decodeCursor(bad, ['number'])).toThrow(
        expect.objectContaining({ code: 'CURSOR_INVALID' }),
      );
  });
});
