// The preview route's shapes in zod: the spec to preview and its next instants. Shape only.

import { z } from 'zod';
import { instant, instantInput } from './common.js';

export const previewBody = z
  .object({
    spec: z.string().min(1).max(4096),
    tz: z.string().min(1).max(64).optional(),
    from: instantInput.optional().meta({
      description:
        'as if saved at this instant (default now): occurrences at or after it; an @every without startAt is anchored here, so it starts at from + interval',
    }),
    count: z.number().int().min(1).max(1000).optional().meta({ description: 'default 5' }),
  })
  .strict();

export const previewResult = z
  .object({ description: z.string(), next: z.array(instant) })
  .meta({ id: 'Preview' });
