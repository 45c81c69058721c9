// The schedule form's retry and policy fields: attempts, backoff and delays; timeout, overlap, misfire,
// catch-up, deadline, priority and checks. Stateless: the form owns the state, the change handler and the
// errors (through its controls); an empty field leaves the policy's default.
import type { FormControls } from './FormControls.tsx';
import { DURATION_HINT } from './TargetFields.tsx';

export interface PolicyFieldsProps {
  controls: FormControls;
}

export function PolicyFields({ controls }: PolicyFieldsProps) {
  const { field, text, number, select } = controls;
  return (
    <>
      <fieldset>
        <legend>Retries</legend>
        {field(
          'retryMaxAttempts',
          'Attempts per run',
          number('retryMaxAttempts'),
          'Including the first; 1 means no retry.',
        )}
        {field(
          'retryBackoff',
          'Backoff',
          select('retryBackoff', ['fixed', 'exponential'], 'default exponential'),
        )}
        {field('retryDelay', 'First retry delay', text('retryDelay'), DURATION_HINT)}
        {field('retryMaxDelay', 'Longest retry delay', text('retryMaxDelay'), DURATION_HINT)}
        {field('retryJitter', 'Retry jitter', select('retryJitter', ['true', 'false'], 'default true'))}
      </fieldset>
      <fieldset>
        <legend>Policies</legend>
        {field('timeout', 'Timeout per attempt', text('timeout'), DURATION_HINT)}
        {field(
          'overlap',
          'When the previous run is still running',
          select('overlap', ['allow', 'skip', 'bufferOne', 'bufferAll', 'cancelPrevious'], 'default allow'),
        )}
        {field(
          'misfire',
          'Occurrences missed while stopped',
          select('misfire', ['skip', 'runOnce', 'runAll'], 'default runOnce'),
        )}
        {field('catchupWindow', 'Catch-up window', text('catchupWindow'), DURATION_HINT)}
        {field('maxCatchup', 'Most catch-up runs', number('maxCatchup'))}
        {field(
          'deadline',
          'Deadline after the scheduled time',
          text('deadline'),
          'Runs not started by then expire. Empty: none.',
        )}
        {field(
          'priority',
          'Priority',
          number('priority'),
          'Higher is claimed first among runs due together (-1000 to 1000).',
        )}
        {field(
          'maxChecks',
          'Most checks',
          number('maxChecks'),
          'Check-again outcomes allowed per occurrence.',
        )}
        {field('checkHorizon', 'Check horizon', text('checkHorizon'), DURATION_HINT)}
      </fieldset>
    </>
  );
}
