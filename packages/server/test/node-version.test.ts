// The supported Node.js versions: the CLI's check and the install-time check read the same `engines` ranges
// and agree on them; Node 20 is refused with a message that says what to do, 22, 24 and 26 are accepted.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { nodeVersionProblem, satisfiesEngines, supportedNodeRange } from '../src/cli/node-version.js';

const root = new URL('../../../', import.meta.url);
const engines = (path: string): string =>
  (JSON.parse(readFileSync(new URL(path, root), 'utf8')) as { engines: { node: string } }).engines.node;
const installCheck = createRequire(import.meta.url)('../../../scripts/check-node.cjs') as {
  satisfies(range: string, version: string): boolean;
};

const CASES: [string, boolean][] = [
  ['20.20.2', false],
  ['21.7.3', false],
  ['22.12.0', false],
  ['22.23.3', true],
  ['24.0.0', true],
  ['24.21.0', true],
  ['26.10.0', true],
  ['v26.10.0', true],
];

describe('supported Node.js versions', () => {
  it('reads the range from @punctual/server, the same as the library', () => {
    expect(supportedNodeRange()).toBe(engines('packages/server/package.json'));
    expect(engines('packages/punctual/package.json')).toBe(supportedNodeRange());
  });

  it.each(CASES)('Node %s is supported by the runtime range: %s', (version, ok) => {
    expect(satisfiesEngines(supportedNodeRange(), version)).toBe(ok);
    expect(installCheck.satisfies(supportedNodeRange(), version)).toBe(ok);
  });

  it('the workspace range (development tools included) is no lower than the runtime one', () => {
    const workspace = engines('package.json');
    for (const [version] of CASES) {
      if (installCheck.satisfies(workspace, version)) {
        expect(satisfiesEngines(supportedNodeRange(), version), version).toBe(true);
      }
    }
    expect(installCheck.satisfies(workspace, '20.20.2')).toBe(false);
    expect(installCheck.satisfies(workspace, '24.21.0')).toBe(true);
  });

  it('says what to do on Node 20, and nothing on a supported Node', () => {
    const message = nodeVersionProblem('20.20.2');
    expect(message).toContain('this is Node 20.20.2');
    expect(message).toContain('npx -y node@24');
    expect(nodeVersionProblem('24.21.0')).toBeUndefined();
  });

  it('refuses a range it cannot read instead of guessing', () => {
    expect(() => satisfiesEngines('~22.1.0', '22.1.5')).toThrow(/unsupported engines comparator/);
    expect(() => installCheck.satisfies('~22.1.0', '22.1.5')).toThrow(/unsupported engines comparator/);
  });
});
