// The alert dispatcher: takes due deliveries from the store's outbox (each claimed by one instance for a
// lease), sends each through the AlertSender, and settles it: delivered, retried with backoff, or given up.
// Its wake timer is the earliest due delivery. It must never send a delivery it did not claim, nor settle
// one whose claim lapsed and was retaken (the store refuses that).

import type { Clock } from '../clock.js';
import type { EventBus } from '../events.js';
import type { AlertStore } from '../store/alert-store.js';
import type { AlertSender } from '../targets/alert-channel-sender.js';
import { Loop } from './loop.js';

export interface AlertDispatcherOptions {
  /** How long a claimed delivery is this instance's (longer than a send can take). */
  leaseMs: number;
  /** Most deliveries one round claims. */
  batch: number;
  /** Longest sleep when no delivery is due sooner (picks up other instances' new deliveries). */
  maxSleepMs: number;
  /** Per-send abort deadline. */
  sendTimeoutMs: number;
}

export class AlertDispatcher {
  readonly loop: Loop;

  constructor(
    private readonly store: AlertStore,
    private readonly clock: Clock,
    private readonly bus: EventBus,
    private readonly send: AlertSender,
    private readonly opts: AlertDispatcherOptions,
  ) {
    this.loop = new Loop('alert dispatcher', clock, bus, () => this.#round(), {
      maxSleepMs: opts.maxSleepMs,
      errorBackoffMs: 1000,
    });
  }

  async #round(): Promise<number> {
    for (;;) {
      const claimed = await this.store.claimAlertDeliveries(
        this.clock.now(),
        this.opts.leaseMs,
        this.opts.batch,
      );
      await Promise.all(
        claimed.map(async (c) => {
          const signal = AbortSignal.timeout(this.opts.sendTimeoutMs);
          let result;
          try {
            result = await this.send(c, signal);
          } catch (e) {
            result = { ok: false as const, error: (e as Error).message ?? String(e), retry: true };
          }
          const { settled, state } = await this.store.settleAlertDelivery(c, result, this.clock.now());
          if (!settled) return;
          this.bus.emit('alert:delivery', {
            alert: c.alert,
            delivery: c.delivery,
            channelKind: c.channel?.kind ?? null,
            outcome: state === 'pending' ? 'retry' : state,
            error: result.ok ? null : result.error,
          });
        }),
      );
      if (claimed.length < this.opts.batch) break;
    }
    const next = await this.store.nextAlertDeliveryAt();
    return Math.min(next ?? Infinity, this.clock.now() + this.opts.maxSleepMs);
  }
}
