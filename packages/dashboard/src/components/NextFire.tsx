// A schedule's next fire time as tables and its page show it: "paused" for a paused schedule (nothing fires
// until it is resumed, whatever the time the service last computed), "completed" once it is over, else the
// instant in the schedule's zone and the viewer's.
import type { Schedule } from '../api.ts';
import { Instant } from './Instant.tsx';

export function NextFire({ schedule, now }: { schedule: Schedule; now: number }) {
  if (schedule.state === 'paused') {
    return (
      <span className="muted" data-testid="next-fire-paused" title={schedule.note ?? undefined}>
        paused
      </span>
    );
  }
  if (schedule.state === 'completed') return <span className="muted">completed</span>;
  return <Instant value={schedule.nextFireAt} tz={schedule.tz} now={now} empty="none" />;
}
