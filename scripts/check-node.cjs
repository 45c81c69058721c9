#!/usr/bin/env node
// Install-time check (the root package's `preinstall`): stops `npm install` / `npm ci` on a Node.js outside
// the workspace's `engines.node` with a message that says what to do, before any dependency is fetched or
// built. Plain CommonJS with no dependency and no modern syntax, so it runs on any old Node. It must never
// change anything; it only reads package.json. Required as a module it exports the range check (tests).
'use strict';

/** Parses `1.2.3` (or `v1.2.3`, `22`, `22.13`) into [major, minor, patch]. */
function parse(version) {
  var parts = String(version).replace(/^v/, '').split('.');
  return [Number(parts[0]) || 0, Number(parts[1]) || 0, Number(parts[2]) || 0];
}

function compare(a, b) {
  for (var i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

/** One comparator: `^X.Y.Z` (same major, at least X.Y.Z) or `>=X.Y.Z`. */
function matches(comparator, version) {
  var c = comparator.trim();
  if (c.charAt(0) === '^') {
    var floor = parse(c.slice(1));
    return version[0] === floor[0] && compare(version, floor) >= 0;
  }
  if (c.slice(0, 2) === '>=') return compare(version, parse(c.slice(2))) >= 0;
  throw new Error('unsupported engines comparator "' + c + '"');
}

/** True when `version` satisfies a range made of `||`-separated `^X.Y.Z` and `>=X.Y.Z` comparators. */
function satisfies(range, version) {
  var v = parse(version);
  return range.split('||').some(function (c) {
    return matches(c, v);
  });
}

module.exports = { satisfies: satisfies };

if (require.main === module) {
  var path = require('path');
  var range = require(path.join(__dirname, '..', 'package.json')).engines.node;
  var current = process.versions.node;
  if (!satisfies(range, current)) {
    process.stderr.write(
      '\nPunctual needs Node.js ' +
        range +
        ' (Node 22, 24 or 26); this is Node ' +
        current +
        '.\n' +
        'Install a supported Node (https://nodejs.org), or without changing the system one:\n' +
        '  npm install --no-save --prefix "$HOME/.node24" node@24\n' +
        '  export PATH="$HOME/.node24/node_modules/.bin:$PATH"\n' +
        'then run npm install again. See "Start" in the README.\n\n',
    );
    process.exit(1);
  }
}
