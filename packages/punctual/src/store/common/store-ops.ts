// The Store operations a store hands to its dialect, written once for both: those that only read or write
// through it, and those that then send the signals their result calls for (chosen in store-signals.ts).
// Which slot does each is in store-slots.ts; lifecycle and the operations that keep state of their own stay
// in each store. It owns no state, and must never read a clock (`now` is always a parameter).
// No ES private members: tests wrap stores in a Proxy, whose calls would not reach one.

import type { StoreSignal } from '../store.js';
import { abortSignals, claimSignals, pauseSignals, putSignals, resumeSignals } from '../store-signals.js';
import { StorePartsBase, type P } from './store-parts.js';

export abstract class StoreOpsBase<C> extends StorePartsBase<C> {
  /** Sends `signals` (none: nothing), waiting only for a store whose signal is itself a write. */
  protected async send<R>(res: R, signals: StoreSignal[]): Promise<R> {
    if (signals.length > 0) await this.signal(signals);
    return res;
  }

  // ── signalled ─────────────────────────────────────────────────────────────────────────────────────
  async putSchedule(...a: Parameters<P['putSchedule']>): ReturnType<P['putSchedule']> {
    const res = await this.call('putSchedule', a);
    return this.send(res, putSignals([res]));
  }

  async putSchedules(...a: Parameters<P['putSchedules']>): ReturnType<P['putSchedules']> {
    const res = await this.call('putSchedules', a);
    return this.send(res, putSignals(res));
  }

  async pauseSchedule(...a: Parameters<P['pauseSchedule']>): ReturnType<P['pauseSchedule']> {
    const res = await this.call('pauseSchedule', a);
    return this.send(res, pauseSignals(res, a[2].cancelPending));
  }

  async resumeSchedule(...a: Parameters<P['resumeSchedule']>): ReturnType<P['resumeSchedule']> {
    const res = await this.call('resumeSchedule', a);
    return this.send(res, resumeSignals(res));
  }

  async claimRuns(...a: Parameters<P['claimRuns']>): ReturnType<P['claimRuns']> {
    const res = await this.call('claimRuns', a);
    return this.send(res, claimSignals(res));
  }

  async settleAndClaim(...a: Parameters<P['settleAndClaim']>): ReturnType<P['settleAndClaim']> {
    const res = await this.call('settleAndClaim', a);
    return this.send(res, claimSignals(res.claim));
  }

  async cancelRun(...a: Parameters<P['cancelRun']>): ReturnType<P['cancelRun']> {
    const t = await this.call('cancelRun', a);
    return this.send(t, abortSignals(t ? [t] : []));
  }

  // ── delegated ───────────────────────────────────────────────────────────────────────────────
  getSchedule(...a: Parameters<P['getSchedule']>): ReturnType<P['getSchedule']> {
    return this.call('getSchedule', a);
  }

  getSchedules(...a: Parameters<P['getSchedules']>): ReturnType<P['getSchedules']> {
    return this.call('getSchedules', a);
  }

  listSchedules(...a: Parameters<P['listSchedules']>): ReturnType<P['listSchedules']> {
    return this.call('listSchedules', a);
  }

  deleteSchedule(...a: Parameters<P['deleteSchedule']>): ReturnType<P['deleteSchedule']> {
    return this.call('deleteSchedule', a);
  }

  dueTimedPauses(...a: Parameters<P['dueTimedPauses']>): ReturnType<P['dueTimedPauses']> {
    return this.call('dueTimedPauses', a);
  }

  nextTimedResumeAt(...a: Parameters<P['nextTimedResumeAt']>): ReturnType<P['nextTimedResumeAt']> {
    return this.call('nextTimedResumeAt', a);
  }

  putOccurrenceOverride(
    ...a: Parameters<P['putOccurrenceOverride']>
  ): ReturnType<P['putOccurrenceOverride']> {
    return this.call('putOccurrenceOverride', a);
  }

  deleteOccurrenceOverride(
    ...a: Parameters<P['deleteOccurrenceOverride']>
  ): ReturnType<P['deleteOccurrenceOverride']> {
    return this.call('deleteOccurrenceOverride', a);
  }

  listOccurrenceOverrides(
    ...a: Parameters<P['listOccurrenceOverrides']>
  ): ReturnType<P['listOccurrenceOverrides']> {
    return this.call('listOccurrenceOverrides', a);
  }

  overridesDue(...a: Parameters<P['overridesDue']>): ReturnType<P['overridesDue']> {
    return this.call('overridesDue', a);
  }

  pruneOverrides(...a: Parameters<P['pruneOverrides']>): ReturnType<P['pruneOverrides']> {
    return this.call('pruneOverrides', a);
  }

  listScheduleRevisions(
    ...a: Parameters<P['listScheduleRevisions']>
  ): ReturnType<P['listScheduleRevisions']> {
    return this.call('listScheduleRevisions', a);
  }

  getScheduleRevision(...a: Parameters<P['getScheduleRevision']>): ReturnType<P['getScheduleRevision']> {
    return this.call('getScheduleRevision', a);
  }

  advanceSchedule(...a: Parameters<P['advanceSchedule']>): ReturnType<P['advanceSchedule']> {
    return this.call('advanceSchedule', a);
  }

  advanceSchedules(...a: Parameters<P['advanceSchedules']>): ReturnType<P['advanceSchedules']> {
    return this.call('advanceSchedules', a);
  }

  nextScheduleAt(...a: Parameters<P['nextScheduleAt']>): ReturnType<P['nextScheduleAt']> {
    return this.call('nextScheduleAt', a);
  }

  nextRollingBackAt(...a: Parameters<P['nextRollingBackAt']>): ReturnType<P['nextRollingBackAt']> {
    return this.call('nextRollingBackAt', a);
  }

  settleRuns(...a: Parameters<P['settleRuns']>): ReturnType<P['settleRuns']> {
    return this.call('settleRuns', a);
  }

  reclaimExpiredLeases(...a: Parameters<P['reclaimExpiredLeases']>): ReturnType<P['reclaimExpiredLeases']> {
    return this.call('reclaimExpiredLeases', a);
  }

  rerunRuns(...a: Parameters<P['rerunRuns']>): ReturnType<P['rerunRuns']> {
    return this.call('rerunRuns', a);
  }

  getRun(...a: Parameters<P['getRun']>): ReturnType<P['getRun']> {
    return this.call('getRun', a);
  }

  listRuns(...a: Parameters<P['listRuns']>): ReturnType<P['listRuns']> {
    return this.call('listRuns', a);
  }

  nextRunDueAt(...a: Parameters<P['nextRunDueAt']>): ReturnType<P['nextRunDueAt']> {
    return this.call('nextRunDueAt', a);
  }

  pendingDueAt(...a: Parameters<P['pendingDueAt']>): ReturnType<P['pendingDueAt']> {
    return this.call('pendingDueAt', a);
  }

  takeNotFired(...a: Parameters<P['takeNotFired']>): ReturnType<P['takeNotFired']> {
    return this.call('takeNotFired', a);
  }

  takeOverdueSchedules(...a: Parameters<P['takeOverdueSchedules']>): ReturnType<P['takeOverdueSchedules']> {
    return this.call('takeOverdueSchedules', a);
  }

  stats(...a: Parameters<P['stats']>): ReturnType<P['stats']> {
    return this.call('stats', a);
  }
}
