// `punctual tenant get` and `punctual tenant rotate-secret`: the tenant of the API key (--key) as the
// service shows it (name, quotas, webhook signing secret) and the rotation of its webhook secret, through
// a running service's HTTP API. It prints the secret only because the tenant asked for its own; it never
// logs it, and never acts on another tenant (operators use `punctual tenants` on the database).

import { EXIT_OK, type CliIo } from '../io.js';
import { withClient, type ClientArgs } from '../http-client.js';
import { printJson } from '../output.js';

export interface TenantJson {
  name: string;
  state: string;
  quotas: Record<string, number | null>;
  webhookSecret: string;
  previousSecretExpiresAt: string | null;
  createdAt: string;
}

const quota = (v: number | null | undefined): string => (v === null || v === undefined ? 'none' : String(v));

function lines(t: TenantJson): string {
  const q = t.quotas;
  const rows: [string, string][] = [
    ['tenant', `${t.name} (${t.state})`],
    [
      'quotas',
      `${quota(q.maxSchedules)} schedules, ${quota(q.maxRunsPerMinute)} runs/min, ` +
        `${quota(q.requestsPerSecond)} requests/s`,
    ],
    ['secret', t.webhookSecret],
    [
      'previous',
      t.previousSecretExpiresAt === null ? 'none' : `still signed with until ${t.previousSecretExpiresAt}`,
    ],
  ];
  return `${rows.map(([k, v]) => `${k.padEnd(10)}${v}`).join('\n')}\n`;
}

export async function tenantGet(args: ClientArgs, io: CliIo): Promise<number> {
  return withClient(args, io, async (api) => {
    const { body } = await api.call<TenantJson>('GET', '/v1/tenant');
    if (args.json === true) printJson(io, body);
    else io.stdout(lines(body));
    return EXIT_OK;
  });
}

export async function tenantRotateSecret(args: ClientArgs, io: CliIo): Promise<number> {
  return withClient(args, io, async (api) => {
    const { body } = await api.call<TenantJson>('POST', '/v1/tenant/webhook-secret/rotate');
    if (args.json === true) {
      printJson(io, body);
      return EXIT_OK;
    }
    const until = body.previousSecretExpiresAt;
    io.stdout(
      `punctual: rotated the webhook secret of ${body.name}: ${body.webhookSecret}\n` +
        (until === null
          ? '  the previous secret is no longer used\n'
          : `  requests carry signatures with both secrets until ${until}; update your receivers before then\n`),
    );
    return EXIT_OK;
  });
}
