// A run or schedule state as a coloured badge that also says the state in words (never colour alone).
import type { RunState, ScheduleState } from '../api.ts';
import { STATE_TONE } from '../lib/runs.ts';

export function StateBadge({
  state,
  title,
}: {
  state: RunState | ScheduleState | null;
  title?: string | undefined;
}) {
  if (state === null) return <span className="badge tone-none">none yet</span>;
  return (
    <span className={`badge tone-${STATE_TONE[state] ?? 'muted'}`} data-state={state} title={title}>
      {state}
    </span>
  );
}
