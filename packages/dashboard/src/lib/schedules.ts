// How a schedule's parts read in tables and on its page: the target in a few words, and the policies as
// labelled, human-readable values. Pure.

import type { Policies, Target } from '../api.ts';
import { formatDuration } from './time.ts';

/** The host of a URL, or the text as given when it is not one. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** A script's first non-empty line, cut short, and its size. */
function scriptSummary(source: string): string {
  const first =
    source
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim() ?? '';
  const line = first.length > 40 ? `${first.slice(0, 39)}…` : first;
  const size = new TextEncoder().encode(source).length;
  return `${line} (${size < 1024 ? `${size} B` : `${(size / 1024).toFixed(1)} KiB`})`;
}

/**
 * The target in a few words, for every kind: "handler send-report", "webhook example.com:8443 (PUT)",
 * "redis main → stream events", "script export default … (120 B)", "command /usr/bin/backup --all". Never throws, even on a shape it does not
 * know (a newer service), so one odd schedule cannot break a page.
 */
export function targetText(t: Target): string {
  try {
    if ('handler' in t) return `handler ${t.handler}`;
    if ('webhook' in t) {
      const m = t.webhook.method && t.webhook.method !== 'POST' ? ` (${t.webhook.method})` : '';
      return `webhook ${hostOf(t.webhook.url)}${m}`;
    }
    if ('redis' in t) return `redis ${t.redis.connection} → stream ${t.redis.stream}`;
    if ('nats' in t) return `nats ${t.nats.connection} → subject ${t.nats.subject}`;
    if ('amqp' in t) {
      const ex = t.amqp.exchange ? `exchange ${t.amqp.exchange}` : 'default exchange';
      return `amqp ${t.amqp.connection} → ${ex}, key ${t.amqp.routingKey}`;
    }
    if ('script' in t) return `script ${scriptSummary(t.script.source)}`;
    if ('command' in t) {
      const line = t.command.argv.join(' ');
      return `command ${line.length > 60 ? `${line.slice(0, 59)}…` : line}${t.command.shell ? ' (sh -c)' : ''}`;
    }
    return Object.keys(t)[0] ?? 'unknown target';
  } catch {
    return (typeof t === 'object' && t !== null && Object.keys(t)[0]) || 'unknown target';
  }
}

/** The policies as [label, value] pairs, in the order of the form. */
export function policyRows(p: Policies): [string, string][] {
  return [
    ['Attempts per run', String(p.retry.maxAttempts)],
    [
      'Retry backoff',
      `${p.retry.backoff}, first delay ${formatDuration(p.retry.delayMs)}, at most ${formatDuration(p.retry.maxDelayMs)}${p.retry.jitter ? ', with jitter' : ''}`,
    ],
    ['Timeout per attempt', formatDuration(p.timeoutMs)],
    ['Overlap', p.overlap],
    ['Misfire', p.misfire],
    ['Catch-up window', formatDuration(p.catchupWindowMs)],
    ['Most catch-up runs', String(p.maxCatchup)],
    ['Deadline', p.deadlineMs === null ? 'none' : formatDuration(p.deadlineMs)],
    ['Priority', String(p.priority)],
    ['Most checks', String(p.maxChecks)],
    ['Check horizon', formatDuration(p.checkHorizonMs)],
  ];
}
