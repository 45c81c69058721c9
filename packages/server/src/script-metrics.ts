// The script sandbox's metrics: its threads, busy threads and queued runs, and the threads replaced so far,
// read from its pool on each scrape. Registered on the service's own registry only; it must never change the
// pool.

import { Counter, Gauge, type Registry } from 'prom-client';
import type { ScriptPoolStats } from 'punctual';

/** Registers the script pool's gauges and its replaced-threads counter, read from `stats` on each scrape. */
export function registerScriptMetrics(registry: Registry, stats: () => ScriptPoolStats): void {
  const registers = [registry];
  const gauge = (name: string, help: string, pick: (s: ScriptPoolStats) => number): void => {
    new Gauge({
      name,
      help,
      registers,
      collect() {
        this.set(pick(stats()));
      },
    });
  };
  gauge('punctual_script_threads', 'Sandbox threads in the script pool', (s) => s.threads);
  gauge('punctual_script_threads_busy', 'Sandbox threads running a script now', (s) => s.busy);
  gauge('punctual_script_runs_queued', 'Script runs waiting for a sandbox thread', (s) => s.queued);
  let counted = 0;
  new Counter({
    name: 'punctual_script_threads_replaced_total',
    help: 'Sandbox threads terminated and replaced (a run past its hard margin, or a thread that died)',
    registers,
    collect() {
      const replaced = stats().replaced;
      if (replaced > counted) this.inc(replaced - counted);
      counted = replaced;
    },
  });
}
