// The open scrape's form of a counter labelled by tenant: the `tenant` label removed and the values summed
// over it, in the text exposition format, so the scrape reveals no tenant id. It must never change the
// values other than by that sum.

import type { Counter } from 'prom-client';

const escapeLabel = (v: string): string =>
  v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');

/** A counter's text exposition with its `tenant` label removed and the values summed over it. */
export function withoutTenants(m: Awaited<ReturnType<Counter['get']>>): string {
  const sums = new Map<string, number>();
  for (const { labels, value } of m.values) {
    const rest = Object.entries(labels)
      .filter(([k]) => k !== 'tenant')
      .map(([k, v]) => `${k}="${escapeLabel(String(v))}"`)
      .join(',');
    sums.set(rest, (sums.get(rest) ?? 0) + value);
  }
  const lines = [
    `# HELP ${m.name} ${m.help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}`,
    `# TYPE ${m.name} ${m.type}`,
  ];
  for (const [labels, value] of sums) lines.push(`${m.name}${labels ? `{${labels}}` : ''} ${value}`);
  return lines.join('\n');
}
