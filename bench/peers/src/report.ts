// Renders a peers result file as Markdown: the median per (peer, workload) cell, the ratio to the raw-SQL
// baseline and to the best peer, marks for duplicates/misses/errors, then machine, versions and settings.
// Usage: npm run bench:peers:report [-- bench/results/<date>-peers.json]  (default: the newest such file)

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface Rep {
  peer: string;
  workload: string;
  rep: number;
  metrics: Record<string, number>;
  duplicates: number;
  misses: number;
  settings: Record<string, unknown>;
  skipped?: string;
  error?: string;
}
interface Doc {
  startedAt: string;
  /** The command that ran it (absent in reports written before it was recorded). */
  command?: string;
  quick: boolean;
  sizes: Record<string, number>;
  reps: number;
  peers: string[];
  workloads: string[];
  machine: Record<string, unknown>;
  versions: Record<string, string>;
  results: Rep[];
}

/** The wait before the measured minutes, when the run set one (sizes.settleMinutes). */
const settled = (s: Record<string, number>): string =>
  s.settleMinutes ? ` after ${s.settleMinutes} min to settle` : '';

/** The headline metric of each workload and whether higher is better. */
const HEADLINE: Record<
  string,
  { metric: string; higher: boolean; label: (s: Record<string, number>) => string }
> = {
  'enqueue-one': {
    metric: 'perSecond',
    higher: true,
    label: (s) => `1. enqueue ${s.enqueueOne} one by one (runs/s)`,
  },
  'enqueue-bulk': {
    metric: 'perSecond',
    higher: true,
    label: (s) => `1. enqueue ${s.enqueueBulk} in bulk of 1000 (runs/s)`,
  },
  drain: {
    metric: 'perSecond',
    higher: true,
    label: (s) => `2. drain ${s.drain} due, concurrency ${s.concurrency} (runs/s)`,
  },
  precision: {
    metric: 'p99',
    higher: false,
    label: (s) =>
      `3. precision: ${s.precisionRuns} over ${(s.precisionSpreadMs ?? 0) / 1000} s, p99 lateness (ms)`,
  },
  'fan-out': {
    metric: 'p99',
    higher: false,
    label: (s) => `4. fan-out: ${s.fanOut} schedules on one minute, p99 first-start lateness (ms)`,
  },
  'backlog-precision': {
    metric: 'p99',
    higher: false,
    label: (s) => `5. precision with ${s.backlog} pending, p99 (ms)`,
  },
  'many-schedules': {
    metric: 'p99',
    higher: false,
    label: (s) =>
      `6. ${s.manySchedules} hourly schedules, ${s.manyMinutes} min steady state${settled(s)}, p99 (ms)`,
  },
  'seconds-spread': {
    metric: 'p99',
    higher: false,
    label: (s) =>
      `6b. ${s.manySchedules} hourly schedules spread over the seconds of the hour, ${s.manyMinutes} min steady state${settled(s)}, p99 (ms)`,
  },
};

function median(values: number[]): number {
  const s = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

const fmt = (v: number) =>
  Number.isFinite(v) ? (Math.abs(v) >= 100 ? String(Math.round(v)) : String(+v.toFixed(2))) : '–';

export function render(doc: Doc, command: string): string {
  const lines: string[] = [];
  lines.push(`# Peers benchmark${doc.quick ? ' (quick)' : ''}, ${doc.startedAt.slice(0, 10)}`, '');
  const repsOf = (w: string) => new Set(doc.results.filter((r) => r.workload === w).map((r) => r.rep)).size;
  const once = doc.workloads.filter((w) => repsOf(w) === 1 && doc.reps > 1);
  lines.push(
    `Machine: ${String(doc.machine.cores)} cores (${String(doc.machine.cpu)}), ${String(doc.machine.memGiB)} GiB, Linux ${String(doc.machine.kernel)}; client and servers share the cores. Command: \`${command}\`. ${doc.reps === 1 ? '1 rep' : `${doc.reps} reps interleaved`}${once.length ? ` (run once: ${once.join(', ')})` : ''}; each cell is the median of its reps; every rep ran in a fresh process on an emptied store.`,
    '',
  );
  lines.push(
    'Marks: **D** duplicates (an id started twice), **M** misses (an id never started within the wait), **E** error, **S** skipped. Ratios: `×raw` = value / raw-SQL baseline, `×best` = value / best peer (throughput: higher is better; lateness: lower is better).',
    '',
  );
  const cell = (peer: string, workload: string) =>
    doc.results.filter((r) => r.peer === peer && r.workload === workload);
  for (const workload of doc.workloads) {
    const h = HEADLINE[workload];
    if (!h) continue;
    lines.push(`## ${h.label(doc.sizes)}`, '');
    const metricNames = new Set<string>();
    for (const r of doc.results)
      if (r.workload === workload) Object.keys(r.metrics).forEach((k) => metricNames.add(k));
    // Every rep skipped or failed: still one (empty) headline column, so the table stays well-formed.
    const cols = metricNames.size > 0 ? [...metricNames] : [h.metric];
    const medians = new Map<string, number>();
    for (const p of doc.peers)
      medians.set(p, median(cell(p, workload).map((r) => r.metrics[h.metric] ?? NaN)));
    const clean = doc.peers.filter((p) => {
      const reps = cell(p, workload);
      return (
        reps.length > 0 && reps.every((r) => !r.error && !r.skipped && r.duplicates === 0 && r.misses === 0)
      );
    });
    const finite = clean.map((p) => medians.get(p)!).filter(Number.isFinite);
    const best = finite.length ? (h.higher ? Math.max(...finite) : Math.min(...finite)) : NaN;
    const raw = medians.get('raw-sql') ?? NaN;
    lines.push(`| peer | ${cols.join(' | ')} | ×raw | ×best | marks |`);
    lines.push(`| --- | ${cols.map(() => '---:').join(' | ')} | ---: | ---: | --- |`);
    for (const p of doc.peers) {
      const reps = cell(p, workload);
      if (reps.length === 0) continue;
      const v = medians.get(p)!;
      const marks = [
        reps.some((r) => r.duplicates > 0) ? `D(${reps.map((r) => r.duplicates).join('/')})` : '',
        reps.some((r) => r.misses > 0) ? `M(${reps.map((r) => r.misses).join('/')})` : '',
        reps.some((r) => r.error) ? `E: ${reps.find((r) => r.error)!.error!.slice(0, 120)}` : '',
        reps.some((r) => r.skipped) ? `S: ${reps.find((r) => r.skipped)!.skipped!}` : '',
      ]
        .filter(Boolean)
        .join(' ');
      const ratio = (base: number) =>
        Number.isFinite(v) && Number.isFinite(base) && base !== 0 ? `${(v / base).toFixed(2)}×` : '–';
      const metrics = cols.map((c) => fmt(median(reps.map((r) => r.metrics[c] ?? NaN))));
      lines.push(`| ${p} | ${metrics.join(' | ')} | ${ratio(raw)} | ${ratio(best)} | ${marks} |`);
    }
    lines.push('');
  }
  lines.push('## Versions', '', '| component | version |', '| --- | --- |');
  for (const [k, v] of Object.entries(doc.versions)) lines.push(`| ${k} | ${v} |`);
  lines.push(
    '',
    '## Sizes',
    '',
    '```json',
    JSON.stringify(doc.sizes, null, 2),
    '```',
    '',
    '## Settings per peer',
    '',
  );
  for (const p of doc.peers) {
    const r = doc.results.find((x) => x.peer === p && Object.keys(x.settings).length > 0);
    if (!r) continue;
    lines.push(
      `- **${p}**: ${Object.entries(r.settings)
        .map(([k, v]) => `${k} = ${String(v)}`)
        .join('; ')}`,
    );
  }
  lines.push('');
  return lines.join('\n');
}

const here = dirname(fileURLToPath(import.meta.url));
const resultsDir = join(here, '..', '..', 'results');
if (process.argv[1]?.endsWith('report.ts')) {
  const file =
    process.argv[2] ??
    join(
      resultsDir,
      readdirSync(resultsDir)
        .filter((f) => /-peers(-quick)?\.json$/.test(f))
        .sort()
        .pop() ?? 'missing-peers.json',
    );
  const doc = JSON.parse(readFileSync(file, 'utf8')) as Doc;
  const md = render(
    doc,
    doc.command ?? (doc.quick ? 'npm run bench:peers -- --quick' : 'npm run bench:peers'),
  );
  const outFile = file.replace(/\.json$/, '.md');
  writeFileSync(outFile, md);
  console.log(md);
  console.log(`written ${outFile}`);
}
