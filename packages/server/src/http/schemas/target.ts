// The target in zod, built from the library's registry of target kinds (TARGET_SHAPES): each kind's JSON
// Schema becomes `{ <kind>: <its shape> }` (strict), and the union lists them in TARGET_KINDS order. So a new
// kind reaches request validation, the OpenAPI document and the dashboard's types without an edit here. The
// library stays the authority on ranges and on what each field means (it answers with the failing field).

import { TARGET_KINDS, TARGET_SHAPES, type TargetKind } from 'punctual';
import { z } from 'zod';
import { targetMessage } from '../input-messages.js';

/** `{ <kind>: value }`, with the value's schema converted from the kind's JSON Schema. */
function envelope(kind: TargetKind): z.ZodObject {
  const value = z.fromJSONSchema(TARGET_SHAPES[kind].jsonSchema as Parameters<typeof z.fromJSONSchema>[0]);
  return z.object({ [kind]: value }).strict();
}

export const target = z
  .union(TARGET_KINDS.map(envelope) as unknown as [z.ZodObject, ...z.ZodObject[]], { error: targetMessage })
  .meta({
    id: 'Target',
    description: `exactly one of the target kinds, as { "<kind>": ... }: ${TARGET_KINDS.join(', ')}`,
  });
