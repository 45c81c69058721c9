// The buttons of a schedule's page: edit, pause (with a note, keeping or cancelling pending runs) or resume,
// trigger now, backfill a range, and delete after a confirmation. Results are announced in a live region.
import { useState } from 'react';
import type { Schedule } from '../api.ts';
import { useSession } from '../lib/context.ts';
import { describeError } from '../lib/errors.ts';
import { navigate, paths } from '../lib/router.ts';
import { BackfillDialog } from './BackfillDialog.tsx';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { Link } from './Link.tsx';
import { PauseDialog } from './PauseDialog.tsx';

export interface ScheduleActionsProps {
  schedule: Schedule;
  /** Called after any change (the page invalidates its cached reads, so they reload). */
  onChanged: () => void;
}

function countOf(result: unknown): number | null {
  if (typeof result !== 'object' || result === null) return null;
  const r = result as Record<string, unknown>;
  for (const k of ['created', 'count', 'runs', 'items']) {
    const v = r[k];
    if (typeof v === 'number') return v;
    if (Array.isArray(v)) return v.length;
  }
  return null;
}

export function ScheduleActions({ schedule, onChanged }: ScheduleActionsProps) {
  const { api } = useSession();
  const [dialog, setDialog] = useState<'pause' | 'backfill' | 'delete' | null>(null);
  const [message, setMessage] = useState<{ text: string; bad: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const key = schedule.key;

  const act = async (what: string, fn: () => Promise<string>): Promise<void> => {
    setBusy(true);
    setMessage({ text: `${what}…`, bad: false });
    try {
      setMessage({ text: await fn(), bad: false });
      onChanged();
    } catch (e) {
      setMessage({ text: `${what} failed: ${describeError(e)}`, bad: true });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="schedule-actions">
      <div className="toolbar" role="toolbar" aria-label={`Actions on ${key}`}>
        <Link className="button" href={paths.scheduleEdit(key)}>
          Edit
        </Link>
        {schedule.state === 'paused' ? (
          <button
            type="button"
            disabled={busy}
            onClick={() => void act('Resuming', async () => (await api.resume(key), 'Resumed.'))}
          >
            Resume
          </button>
        ) : (
          <button
            type="button"
            disabled={busy || schedule.state === 'completed'}
            onClick={() => setDialog('pause')}
          >
            Pause…
          </button>
        )}
        <button
          type="button"
          disabled={busy}
          onClick={() =>
            void act('Triggering', async () => {
              const run = await api.trigger(key);
              return `Triggered: run ${run.id} is ${run.state}.`;
            })
          }
        >
          Trigger now
        </button>
        <button type="button" disabled={busy} onClick={() => setDialog('backfill')}>
          Backfill…
        </button>
        <button type="button" className="danger" disabled={busy} onClick={() => setDialog('delete')}>
          Delete…
        </button>
      </div>
      <p
        className={`status${message?.bad ? ' status-error' : ''}`}
        role="status"
        aria-live="polite"
        data-testid="action-status"
      >
        {message?.text ?? ''}
      </p>
      <PauseDialog
        open={dialog === 'pause'}
        scheduleKey={key}
        onClose={() => setDialog(null)}
        onPause={async (body) => {
          await api.pause(key, body);
          setMessage({
            text: body.cancelPending ? 'Paused; pending runs cancelled.' : 'Paused.',
            bad: false,
          });
          onChanged();
        }}
      />
      <BackfillDialog
        open={dialog === 'backfill'}
        scheduleKey={key}
        tz={schedule.tz}
        onClose={() => setDialog(null)}
        onBackfill={async (body) => {
          const n = countOf(await api.backfill(key, body));
          setMessage({ text: n === null ? 'Backfill accepted.' : `Backfill created ${n} runs.`, bad: false });
          onChanged();
        }}
      />
      <ConfirmDialog
        open={dialog === 'delete'}
        title={`Delete ${key}?`}
        message="The schedule is removed and its pending runs are cancelled. Its past runs stay in the history until they are pruned. This cannot be undone."
        confirmLabel="Delete schedule"
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          await api.deleteSchedule(key);
          onChanged();
          navigate(paths.schedules());
        }}
      />
    </div>
  );
}
