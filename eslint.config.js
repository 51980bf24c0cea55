// Lint configuration: typescript-eslint recommended rules everywhere, plus the determinism rules
// of the pure core (no wall clock, no ambient randomness, no host timers) for everything in src/
// except the edge adapters that are allowed to do process I/O and the page script (src/browser/),
// which runs in a browser on its wall clock.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const determinism = {
  'no-restricted-properties': [
    'error',
    { object: 'Date', property: 'now', message: 'The core reads virtual time from the context.' },
    { object: 'Math', property: 'random', message: 'Use the seeded RandomSource.' },
    { object: 'performance', property: 'now', message: 'The core reads virtual time.' },
  ],
  'no-restricted-globals': [
    'error',
    { name: 'setTimeout', message: 'Schedule a timer on the agenda instead.' },
    { name: 'setInterval', message: 'Schedule a timer on the agenda instead.' },
    { name: 'setImmediate', message: 'Schedule a timer on the agenda instead.' },
    { name: 'crypto', message: 'Ids and randomness come from the seed.' },
  ],
  'no-restricted-imports': [
    'error',
    { name: 'crypto', message: 'Ids and randomness come from the seed.' },
    { name: 'node:crypto', message: 'Ids and randomness come from the seed.' },
  ],
  'no-restricted-syntax': [
    'error',
    {
      selector: "NewExpression[callee.name='Date'][arguments.length=0]",
      message: 'new Date() reads the wall clock; pass virtual time.',
    },
  ],
};

/**
 * The working state's connections and workloads are `Map`s behind record types
 * (src/model/workingMaps.ts): in the model, reading them as records compiles and finds nothing, so
 * it is refused here.
 */
const connectionsAsRecords = [
  {
    selector:
      "MemberExpression[computed=true][object.type='MemberExpression'][object.property.name=/^(connections|liveConnections|workloads)$/]",
    message:
      'In the working state these are Maps: use entryOf/setEntry/deleteEntry (workingMaps.ts).',
  },
  {
    selector:
      "CallExpression[callee.object.name='Object'] > MemberExpression.arguments[property.name=/^(connections|liveConnections|workloads)$/]",
    message: 'In the working state these are Maps: use idsOf/countOf (workingMaps.ts).',
  },
  {
    selector:
      "BinaryExpression[operator='in'] > MemberExpression.right[property.name=/^(connections|liveConnections|workloads)$/]",
    message: 'In the working state these are Maps: use entryOf (workingMaps.ts).',
  },
];

/**
 * Deleting a field of a state object (not an entry of a collection) turns it into a slow dictionary
 * in V8 for good: the model clears fields with `clearField` (src/model/clearField.ts) instead.
 */
const fieldDeletes = [
  {
    selector: "UnaryExpression[operator='delete'] > MemberExpression[computed=false]",
    message: 'Clear a state field with clearField (clearField.ts): a delete makes the object slow.',
  },
];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'out/', 'test-output/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    ignores: ['src/browser/**'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['src/browser/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: [
      'src/cli/**',
      'src/http/**',
      'src/service/**',
      'src/pg/**',
      'src/queue/**',
      'src/browser/**',
    ],
    rules: determinism,
  },
  {
    files: ['src/model/**/*.ts'],
    ignores: ['src/model/workingMaps.ts'],
    rules: {
      'no-restricted-syntax': [
        ...determinism['no-restricted-syntax'],
        ...connectionsAsRecords,
        ...fieldDeletes,
      ],
    },
  },
  {
    // Type-aware rules: a promise nobody awaits loses its errors; a switch over a union must
    // handle every member (a new event type or action then fails here, not at run time).
    files: [
      'src/**/*.ts',
      'test/**/*.ts',
      'benchmarks/**/*.ts',
      'scenarios/**/*.ts',
      'scripts/**/*.ts',
    ],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
    },
  },
  // The type-checked recommended rules on the shipped code: an `any` that leaks, an assertion that
  // asserts nothing, an object stringified as `[object Object]`, an eval in disguise.
  ...tseslint.configs.recommendedTypeCheckedOnly.map((config) => ({
    ...config,
    files: ['src/**/*.ts'],
  })),
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
