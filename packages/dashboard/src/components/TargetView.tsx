// A schedule's target on its page, for every kind: a script's source as code (monospace, scrollable), any other
// target as its JSON. Never assumes a kind it does not know: an unknown shape shows as JSON too.
import type { Target } from '../api.ts';
import { JsonView } from './JsonView.tsx';

export function TargetView({ target }: { target: Target }) {
  if ('script' in target && typeof target.script?.source === 'string') {
    const { source, ...limits } = target.script;
    return (
      <>
        <pre className="json source" aria-label="Script source" tabIndex={0} data-testid="script-source">
          {source}
        </pre>
        {Object.keys(limits).length > 0 && <JsonView value={limits} label="Script limits" />}
      </>
    );
  }
  return <JsonView value={target} label="Target" />;
}
