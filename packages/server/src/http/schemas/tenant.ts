// The tenant route's shape in zod: the caller's tenant, its quotas and its webhook signing secret (the one
// secret the API shows, to its own tenant only). Shape only.

import { z } from 'zod';
import { instant } from './common.js';

export const tenant = z
  .object({
    name: z.string(),
    state: z.enum(['active', 'disabled']),
    quotas: z.object({
      maxSchedules: z.number().nullable(),
      maxRunsPerMinute: z.number().nullable(),
      requestsPerSecond: z.number().nullable(),
    }),
    webhookSecret: z.string().meta({ description: 'Standard Webhooks signing secret (whsec_...)' }),
    previousSecretExpiresAt: instant
      .nullable()
      .meta({ description: 'until then, webhook requests also carry a signature with the previous secret' }),
    createdAt: instant,
  })
  .meta({ id: 'Tenant' });
