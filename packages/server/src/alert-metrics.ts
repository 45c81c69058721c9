// The alerting metrics: a gauge of open alerts by kind (read from the store at each scrape, so it counts
// every instance's alerts) and a counter of alert delivery attempts by channel kind and outcome (this
// process's). Labels never carry a tenant, a schedule key or a channel name. It must never write to the store.

import { hasAlerts, type Scheduler } from 'punctual';
import { Counter, Gauge, type Registry } from 'prom-client';

export class AlertMetrics {
  readonly openAlerts: Gauge<'kind'>;
  readonly deliveries: Counter<'channel' | 'outcome'>;
  readonly #off: () => void;

  constructor(
    registry: Registry,
    private readonly scheduler: Scheduler,
  ) {
    const registers = [registry];
    this.openAlerts = new Gauge({
      name: 'punctual_alerts_open',
      help: 'Open alerts, by kind (all tenants, all instances)',
      labelNames: ['kind'],
      registers,
    });
    this.deliveries = new Counter({
      name: 'punctual_alert_deliveries_total',
      help: 'Attempts to deliver an alert transition to a channel, by channel kind and outcome (delivered, retry, failed)',
      labelNames: ['channel', 'outcome'],
      registers,
    });
    this.#off = scheduler.on('alert:delivery', ({ outcome, channelKind }) =>
      this.deliveries.inc({ channel: channelKind ?? 'deleted', outcome }),
    );
  }

  /** Reads the open alerts from the store (at each scrape). */
  async refresh(): Promise<void> {
    const store = this.scheduler.store;
    if (!hasAlerts(store)) return;
    let rows: { kind: string; count: number }[];
    try {
      rows = await store.countOpenAlerts();
    } catch {
      return; // an unreachable store shows in /readyz; the scrape still answers
    }
    this.openAlerts.reset();
    const byKind = new Map<string, number>();
    for (const r of rows) byKind.set(r.kind, (byKind.get(r.kind) ?? 0) + r.count);
    for (const [kind, n] of byKind) this.openAlerts.set({ kind }, n);
  }

  close(): void {
    this.#off();
  }
}
