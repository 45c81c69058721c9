#!/usr/bin/env node
// The `punctual` command's entry point: refuses an unsupported Node.js with a message that says what to do,
// before anything else is loaded (the SQLite driver would crash or be missing on it), then runs the command
// line in program.ts. It must import nothing but the version check statically.

import { nodeVersionProblem } from './node-version.js';

const problem = nodeVersionProblem(process.versions.node);
if (problem !== undefined) {
  process.stderr.write(problem);
  process.exitCode = 1;
} else {
  await import('./program.js');
}
