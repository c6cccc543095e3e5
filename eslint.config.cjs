// Lint is also the architecture check: Nx's module-boundary rule enforces the layering of
// architecture.md (apps -> services -> adapters -> domain -> contracts/platform) and keeps the
// framework libraries out of the domain.
const nx = require('@nx/eslint-plugin');
const jest = require('eslint-plugin-jest');
const tseslint = require('typescript-eslint');

const INFRASTRUCTURE = ['@nestjs/*', 'typeorm', 'kafkajs', 'neo4j-driver', 'pg', '@electric-sql/*', 'fastify'];
// A service's scope covers its service library and its store library (its tables, migrations and
// repositories: libs/*-store), so no other service can import its tables; libs/persistence, shared,
// keeps only the connection, the migration runner and the shared tables.
const service = (scope) => ({ sourceTag: `scope:${scope}`, onlyDependOnLibsWithTags: [`scope:${scope}`, 'scope:shared'] });

module.exports = [
  { ignores: ['**/dist/**', '**/node_modules/**', 'coverage/**', '.nx/**', 'data/**', 'tmp/**'] },
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: __dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          // Test tooling (the Kafka mock launcher) is not a lib; tests anywhere may use it.
          allow: ['/test/tools/'],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:service', 'type:adapter', 'type:domain', 'type:contracts', 'type:platform'] },
            { sourceTag: 'type:service', onlyDependOnLibsWithTags: ['type:service', 'type:adapter', 'type:domain', 'type:contracts', 'type:platform'] },
            { sourceTag: 'type:adapter', onlyDependOnLibsWithTags: ['type:adapter', 'type:domain', 'type:contracts', 'type:platform'] },
            { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:domain', 'type:contracts', 'type:platform'], bannedExternalImports: INFRASTRUCTURE },
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:contracts', 'type:platform'], bannedExternalImports: ['typeorm', 'kafkajs', 'neo4j-driver', 'pg', '@electric-sql/*', 'fastify'] },
            { sourceTag: 'type:platform', onlyDependOnLibsWithTags: ['type:platform'], bannedExternalImports: INFRASTRUCTURE },
            service('gateway'),
            service('ingestion'),
            service('scoring'),
            service('graph'),
            service('lookup'),
            service('labelling'),
            { sourceTag: 'scope:cli', onlyDependOnLibsWithTags: ['scope:shared'] },
            // The console runs in the browser and talks to the server only through the public API;
            // of the contracts it bundles only import-free constants (the checkpoint list).
            { sourceTag: 'scope:console', onlyDependOnLibsWithTags: ['scope:console', 'type:contracts'], bannedExternalImports: INFRASTRUCTURE },
            // The web SDK runs in shoppers' browsers and is bundled alone: it imports nothing of the server.
            { sourceTag: 'scope:web-sdk', onlyDependOnLibsWithTags: ['scope:web-sdk'], bannedExternalImports: INFRASTRUCTURE },
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
          ],
        },
      ],
    },
  },
  {
    // Production code stays small enough to read: a file one job, a function one screen. A
    // measured hot loop may exceed the function limit with a disable comment saying why.
    files: ['apps/**/*.{ts,tsx}', 'libs/**/*.ts'],
    ignores: ['**/*.spec.ts', '**/*.int-spec.ts', '**/test-support/**', '**/migrations/**'],
    rules: {
      'max-lines': ['error', { max: 400 }],
      'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/test-support/**/*.ts', 'test/**/*.ts'],
    plugins: { jest },
    rules: {
      'jest/no-focused-tests': 'error',
      'jest/no-disabled-tests': 'error',
      'jest/no-identical-title': 'error',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
];
