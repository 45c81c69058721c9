// One instant, always with its zone: in the given zone (the schedule's), then in the viewer's when that
// differs, and how far away it is. A null instant reads as `empty`.
import { formatInstant, formatRelative, viewerZone } from '../lib/time.ts';

export interface InstantProps {
  value: string | null;
  /** The zone to show it in first (a schedule's zone); default the viewer's. */
  tz?: string | undefined;
  /** Show the viewer's zone too when it differs (default true). */
  both?: boolean;
  now?: number | undefined;
  empty?: string;
}

export function Instant({ value, tz, both = true, now, empty = '—' }: InstantProps) {
  if (value === null) return <span className="muted">{empty}</span>;
  const mine = viewerZone();
  const zone = tz ?? mine;
  const primary = formatInstant(value, zone);
  const secondary = both && zone !== mine ? formatInstant(value, mine) : null;
  return (
    <span className="instant">
      <time dateTime={value} title={new Date(value).toISOString()}>
        {primary}
      </time>
      {secondary !== null && (
        <span className="instant-local">
          <span className="visually-hidden">, for you: </span>
          {secondary}
        </span>
      )}
      {now !== undefined && <span className="instant-rel">{formatRelative(value, now)}</span>}
    </span>
  );
}
