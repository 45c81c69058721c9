// Lint rules for the workspace. The import restrictions enforce the architecture in docs/architecture.md:
// the domain stays pure and the engine never reaches for a concrete store.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // A target kind's shape module (targets/[<kind>/]<kind>-shape.ts, broker-shapes.ts) is as pure as the domain, which imports it.
    files: [
      'packages/punctual/src/domain/**/*.ts',
      'packages/punctual/src/targets/**/*-shape.ts',
      'packages/punctual/src/targets/**/*-shapes.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            'node:*',
            '**/store/**',
            '**/engine/**',
            // Files, not folders: a file under an excluded folder could not be let in again.
            '**/targets/**/*.js',
            '!**/targets/*-shape.js',
            '!**/targets/*/*-shape.js',
            '!**/targets/*/*-shapes.js',
            '**/scheduler*',
          ],
        },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'Domain code takes the instant as an argument.' },
      ],
      'no-restricted-globals': ['error', 'setTimeout', 'setInterval'],
    },
  },
  {
    // The machine's clock is read in one place (clock.ts, systemClock): the domain and the engine, and their
    // tests, get the instant from an argument or an injected clock. This is what lets test:dates run those
    // suites at one moved instant instead of five (.ci/test-dates, README.md).
    files: [
      'packages/punctual/src/domain/**/*.ts',
      'packages/punctual/src/engine/**/*.ts',
      'packages/punctual/test/domain/**/*.ts',
      'packages/punctual/test/engine/**/*.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'Take the instant from an argument or the injected clock, never the machine clock.',
        },
        {
          selector: "MemberExpression[object.name='Date'][property.name='now']",
          message: 'Take the instant from an argument or the injected clock, never the machine clock.',
        },
        {
          selector: "MemberExpression[object.name='Temporal'][property.name='Now']",
          message: 'Take the instant from an argument or the injected clock, never the machine clock.',
        },
      ],
    },
  },
  {
    files: ['packages/punctual/src/engine/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['**/store/sqlite/**', '**/store/postgres/**', '**/targets/*/**'] },
      ],
    },
  },
  {
    // The install-time Node check: CommonJS that must run on any old Node, before dependencies exist.
    files: ['scripts/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { module: 'writable', require: 'readonly', __dirname: 'readonly', process: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off', 'no-var': 'off' },
  },
);
