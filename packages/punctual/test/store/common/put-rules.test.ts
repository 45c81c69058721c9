// When a put is refused, the same for both stores: VERSION_CONFLICT with the expected and the stored version.

import { describe, expect, it } from 'vitest';
import { putRefusal } from '../../../src/store/common/put-rules.js';
import { PunctualError } from '../../../src/errors.js';

const draft = { key: 'k' } as never;

describe('put rules', () => {
  it('lets a put without expectations through, whatever is stored', () => {
    expect(putRefusal({ draft }, null)).toBeUndefined();
    expect(putRefusal({ draft }, 4)).toBeUndefined();
  });

  it('refuses an expected version that is not the stored one, none stored included', () => {
    for (const actual of [3, null]) {
      const e = putRefusal({ draft, expectedVersion: 2 }, actual);
      expect(e).toBeInstanceOf(PunctualError);
      expect(e?.code).toBe('VERSION_CONFLICT');
      expect(e?.details).toEqual({ key: 'k', expected: 2, actual });
    }
    expect(putRefusal({ draft, expectedVersion: 2 }, 2)).toBeUndefined();
  });

  it('refuses expectAbsent when a schedule is stored', () => {
    expect(putRefusal({ draft, expectAbsent: true }, null)).toBeUndefined();
    const e = putRefusal({ draft, expectAbsent: true }, 1);
    expect(e?.details).toEqual({ key: 'k', expected: null, actual: 1 });
  });
});
