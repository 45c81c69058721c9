// Which Node.js versions the service and its command line run on: the `engines.node` range of
// @punctual/server's package.json (the one source), checked against `process.versions.node`. It must load
// nothing but node:fs, because the CLI runs it before anything native (the SQLite driver) is imported.

import { readFileSync } from 'node:fs';

type Version = [number, number, number];

function parse(text: string): Version {
  const [major = 0, minor = 0, patch = 0] = text
    .replace(/^v/, '')
    .split('.')
    .map((p) => Number(p) || 0);
  return [major, minor, patch];
}

function compare(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return 0;
}

/** True when `version` satisfies a range of `||`-separated `^X.Y.Z` and `>=X.Y.Z` comparators. */
export function satisfiesEngines(range: string, version: string): boolean {
  const v = parse(version);
  return range.split('||').some((raw) => {
    const c = raw.trim();
    if (c.startsWith('^')) {
      const floor = parse(c.slice(1));
      return v[0] === floor[0] && compare(v, floor) >= 0;
    }
    if (c.startsWith('>=')) return compare(v, parse(c.slice(2))) >= 0;
    throw new Error(`unsupported engines comparator "${c}"`);
  });
}

/** The `engines.node` range of @punctual/server (two levels up from both src/cli and dist/cli). */
export function supportedNodeRange(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    engines: { node: string };
  };
  return pkg.engines.node;
}

/** A message saying what to do when `version` is not supported; undefined when it is. */
export function nodeVersionProblem(version: string, range = supportedNodeRange()): string | undefined {
  if (satisfiesEngines(range, version)) return undefined;
  return (
    `punctual: Node.js ${range} is needed (Node 22, 24 or 26); this is Node ${version}.\n` +
    'Install a supported Node (https://nodejs.org), or run this command with one from the npm registry:\n' +
    '  npx -y node@24 "$(command -v punctual)" ...\n'
  );
}
