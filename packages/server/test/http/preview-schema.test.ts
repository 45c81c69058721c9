// The preview's note shapes in the API schema come from the library's one list of note kinds: a kind added
// there without a shape here (or the other way round) fails this test.
import { PREVIEW_DROP_REASONS, PREVIEW_NOTE_KINDS } from 'punctual';
import { expect, it } from 'vitest';
import { previewDropped, previewNote } from '../../src/http/schemas.js';

it("the API's note shapes cover the library's list of note kinds, no more", () => {
  const kinds = previewNote.options.map((o) => o.shape.kind.value);
  expect([...kinds].sort()).toEqual([...PREVIEW_NOTE_KINDS].sort());
});

it("the API's drop reasons are the library's list", () => {
  expect(previewDropped.shape.reason.options).toEqual([...PREVIEW_DROP_REASONS]);
});
