// How a schedule's parts read in tables and on its page: the target in a few words, and the policies as
// labelled, human-readable values. Pure.

import type { Policies, Target } from '../api.ts';
import { formatDuration } from './time.ts';

/** "handler send-report", "webhook example.com:8443 (POST)". */
export function targetText(t: Target): string {
  if ('handler' in t) return `handler ${t.handler}`;
  let where = t.webhook.url;
  try {
    where = new URL(t.webhook.url).host;
  } catch {
    // keep the text as given
  }
  return `webhook ${where}${t.webhook.method && t.webhook.method !== 'POST' ? ` (${t.webhook.method})` : ''}`;
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
