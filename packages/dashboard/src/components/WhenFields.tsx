// The schedule form's "When" fields: key, spec, time zone (with the zone names to pick from), start and end
// as wall times in the schedule's zone, the DST choices, calendars, most runs and jitter. Stateless: the form
// owns the state, the change handler and the errors (through its controls).
import { useMemo } from 'react';
import type { FormControls } from './FormControls.tsx';
import { viewerZone, zoneNames } from '../lib/time.ts';

/** Wall times typed as ISO 8601 (a datetime-local control would follow the browser's locale). */
const ISO_WALL_TIME = {
  autoComplete: 'off',
  spellCheck: false,
  inputMode: 'numeric',
  placeholder: 'YYYY-MM-DDTHH:MM',
  className: 'mono',
};

export interface WhenFieldsProps {
  controls: FormControls;
  /** Editing a saved schedule: its key cannot change. */
  editing: boolean;
  /** The zone the wall times are read in (the form's, UTC when empty). */
  tz: string;
}

export function WhenFields({ controls, editing, tz }: WhenFieldsProps) {
  const { field, text, number, select } = controls;
  const zones = useMemo(() => zoneNames(), []);
  return (
    <fieldset>
      <legend>When</legend>
      {field(
        'key',
        'Key',
        text('key', { readOnly: editing, autoComplete: 'off', spellCheck: false }),
        editing
          ? 'The key cannot change; create a new schedule for a new key.'
          : 'Unique within the tenant: letters, digits and . _ : @ -',
      )}
      {field(
        'spec',
        'Spec',
        text('spec', { autoComplete: 'off', spellCheck: false, className: 'mono' }),
        'cron (0 9 * * 1-5), RRULE (FREQ=WEEKLY;BYDAY=MO), @every 15m, @at 2026-01-05T09:00:00Z or @in 10m',
      )}
      {field(
        'tz',
        'Time zone',
        text('tz', { list: 'zone-names', autoComplete: 'off', spellCheck: false }),
        `IANA zone the spec is read in. Yours is ${viewerZone()}.`,
      )}
      <datalist id="zone-names">
        {zones.map((z) => (
          <option key={z} value={z} />
        ))}
      </datalist>
      {field(
        'startAt',
        `Start at (${tz})`,
        text('startAt', ISO_WALL_TIME),
        'Optional: no occurrence before this. ISO 8601, e.g. 2026-01-05T09:00.',
      )}
      {field(
        'endAt',
        `End at (${tz})`,
        text('endAt', ISO_WALL_TIME),
        'Optional: no occurrence from this on. ISO 8601, e.g. 2026-12-31T18:00.',
      )}
      {field(
        'dstGap',
        'A fixed time in a DST gap',
        select('dstGap', ['shift', 'skip'], 'default: cron shift, RRULE skip'),
        'Cron and RRULE only. shift: run right after the gap; skip: not that day.',
      )}
      {field(
        'dstRepeat',
        'A fixed time that occurs twice',
        select('dstRepeat', ['first', 'both'], 'default first'),
        'Cron and RRULE only. first: the first pass; both: each pass.',
      )}
      {field(
        'exclude',
        'Excluded calendars',
        text('exclude'),
        'Optional: calendar names, separated by commas; an occurrence on one of their dates is skipped.',
      )}
      {field(
        'businessDaysCalendar',
        'Business days of',
        text('businessDaysCalendar'),
        'Optional: a calendar whose working days the schedule keeps to.',
      )}
      {field(
        'businessDaysRoll',
        'On a non-working day',
        select('businessDaysRoll', ['skip', 'next', 'previous'], 'default skip'),
        'skip it, or roll it to the next / previous working day at the same local time.',
      )}
      {field('maxRuns', 'Most runs', number('maxRuns'), 'Optional: the schedule completes after this many.')}
      {field(
        'jitter',
        'Jitter',
        text('jitter'),
        'Optional: a fixed random offset per occurrence, below this duration (30s, 5m).',
      )}
    </fieldset>
  );
}
