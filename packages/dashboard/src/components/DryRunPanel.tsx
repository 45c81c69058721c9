// What a save would do, asked of the service without writing (PUT ?dryRun=true): created, updated or
// unchanged, the changed fields as from -> to, the next fire times before and after, the pending runs it
// would cancel and the occurrence overrides it would drop. It only shows the service's answer; it never computes a diff itself.
import type { DryRun } from '../api.ts';
import { describeError } from '../lib/errors.ts';
import { valueText } from './HistoryPanel.tsx';
import { Instant } from './Instant.tsx';

export interface DryRunPanelProps {
  result: DryRun | undefined;
  error: unknown;
  tz: string;
  now: number;
}

export function DryRunPanel({ result, error, tz, now }: DryRunPanelProps) {
  if (error) return <p className="form-error">{describeError(error)}</p>;
  if (!result) return null;
  const fields = Object.entries(result.diff);
  const rows = Array.from(
    { length: Math.max(result.nextBefore.length, result.nextAfter.length) },
    (_, i) => i,
  );
  return (
    <section aria-labelledby="dry-run-heading" data-testid="dry-run">
      <h2 id="dry-run-heading">What saving would do</h2>
      <p>
        {result.outcome === 'unchanged'
          ? `Nothing: the schedule stays version ${result.nextVersion}.`
          : `The schedule would be ${result.outcome} as version ${result.nextVersion}.`}
        {result.cancelled.length > 0 &&
          ` ${result.cancelled.length}${result.cancelledTruncated ? '+' : ''} pending run(s) would be cancelled.`}
      </p>
      {result.droppedOverrides.length > 0 && (
        <div data-testid="dropped-overrides">
          <p>These overrides would be dropped (their occurrences are no longer in the schedule):</p>
          <ul>
            {result.droppedOverrides.map((o) => (
              <li key={o.instant}>
                {o.kind} of <Instant value={o.instant} tz={tz} both={false} now={now} />
              </li>
            ))}
          </ul>
        </div>
      )}
      {fields.length > 0 && (
        <table className="compact">
          <caption>Changed fields</caption>
          <tbody>
            {fields.map(([f, c]) => (
              <tr key={f}>
                <th scope="row">{f}</th>
                <td>
                  <code>{valueText(c?.from)}</code> → <code>{valueText(c?.to)}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {rows.length > 0 && (
        <table className="compact">
          <caption>Next fire times</caption>
          <thead>
            <tr>
              <th scope="col">Now</th>
              <th scope="col">After saving</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((i) => (
              <tr key={i}>
                <td>
                  <Instant value={result.nextBefore[i] ?? null} tz={tz} both={false} now={now} />
                </td>
                <td>
                  <Instant value={result.nextAfter[i] ?? null} tz={tz} both={false} now={now} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
