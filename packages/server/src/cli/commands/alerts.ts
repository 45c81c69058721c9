// `punctual alerts ls|get`, `punctual channels ls|get|put|rm`, `punctual checks ls|get|put|rm` and
// `punctual heartbeat <name>`: a tenant's alerts, alert channels and checks through a running service's HTTP
// API (--url, --key). It owns turning options into requests and answers into lines; with --json it prints the
// API's JSON as it came. Judging bodies and addresses is the service's work.

import { EXIT_OK, type CliIo } from '../io.js';
import { seg, withClient, type ClientArgs } from '../http-client.js';
import { printJson, table } from '../output.js';

interface AlertJson {
  id: string;
  kind: string;
  subjectKind: string;
  subject: string;
  state: string;
  openedAt: string;
  resolvedAt: string | null;
  summary: string;
}

interface DeliveryJson {
  channel: string;
  transition: string;
  state: string;
  attempts: number;
  lastError: string | null;
}

interface ChannelJson {
  name: string;
  kind: string;
  url: string;
  routingKey: string | null;
}

interface CheckJson {
  name: string;
  kind: string;
  everyMs: number | null;
  deadline?: { schedule: string; spec: string; tz: string; withinMs: number } | null;
  lastBeatAt: string | null;
  nextCheckAt: string | null;
}

export interface AlertsListArgs extends ClientArgs {
  state?: string | undefined;
  schedule?: string | undefined;
  limit?: string | number | undefined;
}

export interface NamedArgs extends ClientArgs {
  name: string;
}

export interface ChannelPutArgs extends NamedArgs {
  kind: string;
  /** The channel's URL (`--to`: `--url` is the service's). */
  to: string;
  routingKey?: string | undefined;
}

export interface CheckPutArgs extends NamedArgs {
  kind?: string | undefined;
  every?: string | undefined;
  schedule?: string | undefined;
  spec?: string | undefined;
  tz?: string | undefined;
  within?: string | undefined;
}

export async function alertsList(args: AlertsListArgs, io: CliIo): Promise<number> {
  return withClient(args, io, async (api) => {
    const { body } = await api.call<{ items: AlertJson[] }>('GET', '/v1/alerts', {
      query: { state: args.state, schedule: args.schedule, limit: args.limit },
    });
    if (args.json === true) printJson(io, body);
    else
      io.stdout(
        table(
          ['ID', 'STATE', 'KIND', 'SUBJECT', 'OPENED', 'RESOLVED'],
          body.items.map((a) => [a.id, a.state, a.kind, a.subject, a.openedAt, a.resolvedAt ?? '-']),
        ),
      );
    return EXIT_OK;
  });
}

export async function alertsGet(args: ClientArgs & { id: string }, io: CliIo): Promise<number> {
  return withClient(args, io, async (api) => {
    const { body } = await api.call<{ alert: AlertJson; deliveries: DeliveryJson[] }>(
      'GET',
      `/v1/alerts/${seg(args.id)}`,
    );
    if (args.json === true) {
      printJson(io, body);
      return EXIT_OK;
    }
    const a = body.alert;
    io.stdout(
      `alert ${a.id}: ${a.kind} (${a.state}) about ${a.subjectKind} ${a.subject}\n${a.summary}\n` +
        `opened ${a.openedAt}${a.resolvedAt ? `, resolved ${a.resolvedAt}` : ''}\n\n`,
    );
    io.stdout(
      table(
        ['CHANNEL', 'TRANSITION', 'STATE', 'ATTEMPTS', 'LAST ERROR'],
        body.deliveries.map((d) => [
          d.channel,
          d.transition,
          d.state,
          String(d.attempts),
          d.lastError ?? '-',
        ]),
      ),
    );
    return EXIT_OK;
  });
}

export async function channelsList(args: ClientArgs, io: CliIo): Promise<number> {
  return withClient(args, io, async (api) => {
    const { body } = await api.call<{ items: ChannelJson[] }>('GET', '/v1/alert-channels');
    if (args.json === true) printJson(io, body);
    else
      io.stdout(
        table(
          ['NAME', 'KIND', 'URL'],
          body.items.map((c) => [c.name, c.kind, c.url]),
        ),
      );
    return EXIT_OK;
  });
}

export async function channelsGet(args: NamedArgs, io: CliIo): Promise<number> {
  return withClient(args, io, async (api) => {
    const { body } = await api.call<ChannelJson>('GET', `/v1/alert-channels/${seg(args.name)}`);
    printJson(io, body);
    return EXIT_OK;
  });
}

export async function channelsPut(args: ChannelPutArgs, io: CliIo): Promise<number> {
  return withClient(args, io, async (api) => {
    const res = await api.call<ChannelJson>('PUT', `/v1/alert-channels/${seg(args.name)}`, {
      body: {
        kind: args.kind,
        url: args.to,
        ...(args.routingKey === undefined ? {} : { routingKey: args.routingKey }),
      },
    });
    if (args.json === true) printJson(io, res.body);
    else
      io.stdout(`punctual: ${res.status === 201 ? 'created' : 'replaced'} alert channel ${res.body.name}\n`);
    return EXIT_OK;
  });
}

export async function channelsRemove(args: NamedArgs, io: CliIo): Promise<number> {
  return withClient(args, io, async (api) => {
    await api.call('DELETE', `/v1/alert-channels/${seg(args.name)}`);
    if (args.json === true) printJson(io, { name: args.name, deleted: true });
    else io.stdout(`punctual: deleted alert channel ${args.name}\n`);
    return EXIT_OK;
  });
}

export async function checksList(args: ClientArgs, io: CliIo): Promise<number> {
  return withClient(args, io, async (api) => {
    const { body } = await api.call<{ items: CheckJson[] }>('GET', '/v1/checks');
    if (args.json === true) printJson(io, body);
    else
      io.stdout(
        table(
          ['NAME', 'KIND', 'EVERY / DEADLINE', 'LAST BEAT', 'NEXT CHECK'],
          body.items.map((c) => [
            c.name,
            c.kind,
            c.deadline
              ? `${c.deadline.schedule} within ${c.deadline.withinMs / 1000}s of ${c.deadline.spec} (${c.deadline.tz})`
              : `${(c.everyMs ?? 0) / 1000}s`,
            c.lastBeatAt ?? '-',
            c.nextCheckAt ?? '-',
          ]),
        ),
      );
    return EXIT_OK;
  });
}

export async function checksGet(args: NamedArgs, io: CliIo): Promise<number> {
  return withClient(args, io, async (api) => {
    const { body } = await api.call<CheckJson>('GET', `/v1/checks/${seg(args.name)}`);
    printJson(io, body);
    return EXIT_OK;
  });
}

export async function checksPut(args: CheckPutArgs, io: CliIo): Promise<number> {
  return withClient(args, io, async (api) => {
    const res = await api.call<CheckJson>('PUT', `/v1/checks/${seg(args.name)}`, {
      body:
        args.kind === 'deadline'
          ? { kind: 'deadline', schedule: args.schedule, spec: args.spec, tz: args.tz, within: args.within }
          : { kind: args.kind ?? 'heartbeat', every: args.every },
    });
    if (args.json === true) printJson(io, res.body);
    else io.stdout(`punctual: ${res.status === 201 ? 'created' : 'replaced'} check ${res.body.name}\n`);
    return EXIT_OK;
  });
}

export async function checksRemove(args: NamedArgs, io: CliIo): Promise<number> {
  return withClient(args, io, async (api) => {
    await api.call('DELETE', `/v1/checks/${seg(args.name)}`);
    if (args.json === true) printJson(io, { name: args.name, deleted: true });
    else io.stdout(`punctual: deleted check ${args.name}\n`);
    return EXIT_OK;
  });
}

export async function heartbeat(args: NamedArgs, io: CliIo): Promise<number> {
  return withClient(args, io, async (api) => {
    const { body } = await api.call<CheckJson>('POST', `/v1/heartbeats/${seg(args.name)}`);
    if (args.json === true) printJson(io, body);
    else io.stdout(`punctual: heartbeat recorded for ${body.name}; next check ${body.nextCheckAt ?? '-'}\n`);
    return EXIT_OK;
  });
}
