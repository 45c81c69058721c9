// One attempt's delivery: the driver's outcome, raced against the schedule's timeout. It turns every way an
// attempt can end without a driver's answer into an Outcome: ATTEMPT_TIMEOUT when the timeout passes first
// (the delivery is aborted then), ATTEMPT_FAILED when the driver throws or no driver serves the target's
// kind. It never settles, holds a slot or touches the store: the worker does what the outcome calls for.

import type { CancelTimer, Clock } from '../clock.js';
import type { Outcome } from '../domain/outcome.js';
import { targetKind } from '../domain/target.js';
import { describeThrown } from '../errors.js';
import type { Delivery, TargetDriver } from '../targets/target.js';

/**
 * Delivers `delivery` through `driver`; `abort` is the controller behind `delivery.signal`. `armed` receives
 * the timeout's cancel before the driver is called.
 */
export function deliverAttempt(
  clock: Clock,
  driver: TargetDriver | undefined,
  abort: AbortController,
  delivery: Delivery,
  armed: (cancelTimeout: CancelTimer) => void,
): Promise<Outcome> {
  const { schedule, startedAt } = delivery;
  const timeoutMs = schedule.policies.timeoutMs;
  const timedOut = new Promise<Outcome>((resolve) => {
    armed(
      clock.setTimer(startedAt + timeoutMs, () => {
        abort.abort(new Error(`attempt timed out after ${timeoutMs} ms`));
        resolve({
          type: 'retry',
          error: { code: 'ATTEMPT_TIMEOUT', message: `attempt timed out after ${timeoutMs} ms` },
        });
      }),
    );
  });
  const delivered: Promise<Outcome> = driver
    ? driver
        .deliver(delivery)
        .catch((e: unknown) => ({ type: 'retry', error: { code: 'ATTEMPT_FAILED', ...describeThrown(e) } }))
    : Promise.resolve({
        type: 'retry',
        error: { code: 'ATTEMPT_FAILED', message: `no target driver for ${targetKind(schedule.target)}` },
      });
  return Promise.race([delivered, timedOut]);
}
