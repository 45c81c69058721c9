// The field diff between two versions of a schedule's content: only the fields that differ, JSON parts
// compared whatever their key order, every set field from null on a creation and to null on a deletion.

import { describe, expect, it } from 'vitest';
import { DIFF_FIELDS, diffSchedules, emptyDiff } from '../../src/domain/schedule-diff.js';
import { draft, policies } from '../support/fixtures.js';

describe('diffSchedules', () => {
  it('lists only the fields that differ, as {from, to}', () => {
    const before = draft({ payload: { a: 1, b: [1, 2] }, labels: { team: 'ops' } });
    const after = draft({
      spec: '*/10 * * * *',
      payload: { a: 1, b: [1, 3] },
      policies: policies({ priority: 9 }),
      labels: { team: 'ops' },
      endAt: 1_800_000_000_000,
    });
    const diff = diffSchedules(before, after);
    // The description follows the spec.
    expect(Object.keys(diff)).toEqual(['spec', 'payload', 'policies', 'endAt', 'description']);
    expect(diff.spec).toEqual({ from: before.spec, to: '*/10 * * * *' });
    expect(diff.description).toEqual({ from: 'Every 5 minutes, UTC', to: 'Every 10 minutes, UTC' });
    expect(diff.payload).toEqual({ from: { a: 1, b: [1, 2] }, to: { a: 1, b: [1, 3] } });
    expect(diff.endAt).toEqual({ from: null, to: 1_800_000_000_000 });
  });

  it('is empty for the same content whatever the key order of its JSON parts', () => {
    const a = draft({ payload: { x: 1, y: { p: 1, q: 2 } } });
    const b = draft({ payload: { y: { q: 2, p: 1 }, x: 1 } });
    expect(emptyDiff(diffSchedules(a, b))).toBe(true);
  });

  it('lists every set field from null on a creation and to null on a deletion', () => {
    const d = draft({ payload: { a: 1 } });
    const created = diffSchedules(null, d);
    expect(created.payload).toEqual({ from: null, to: { a: 1 } });
    expect(created.maxRuns).toBeUndefined(); // null before and after
    const deleted = diffSchedules(d, null);
    expect(deleted.spec).toEqual({ from: d.spec, to: null });
    for (const f of Object.keys(created)) expect(DIFF_FIELDS).toContain(f);
  });
});
