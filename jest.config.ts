import type { Config } from 'jest';
import { compilerOptions } from './tsconfig.base.json';

// Maps the @ringfence/* path aliases of tsconfig.base.json to their sources.
const moduleNameMapper = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([alias, [target]]) => [
    `^${alias}$`,
    `<rootDir>/${target}`,
  ]),
);

const swcTransform: Config['transform'] = {
  '^.+\\.ts$': [
    '@swc/jest',
    {
      jsc: {
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true },
        target: 'es2022',
      },
      module: { type: 'commonjs' },
    },
  ],
  // @marcbachmann/cel-js (the rules' CEL engine) ships ES modules only: Node loads them from the
  // CommonJS build with require(esm), jest's module runtime cannot, so jest compiles them.
  'node_modules/@marcbachmann/cel-js/.+\\.js$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }],
};

const shared = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: swcTransform,
  moduleNameMapper,
  transformIgnorePatterns: ['/node_modules/(?!@marcbachmann/cel-js/)'],
  modulePathIgnorePatterns: ['<rootDir>/dist/'],
  // Jest's transform cache, out of the system's temporary directory (tests leave nothing there).
  cacheDirectory: '<rootDir>/node_modules/.cache/jest',
};

const config: Config = {
  // A worker is replaced once it holds more than this after a test file: a long unit run loads
  // many embedded databases and servers in each worker, and a worker grown past it slowed to a
  // crawl in a clean-clone CI run (hooks past 60 s in suites that take 20 s alone).
  workerIdleMemoryLimit: '1536MB',
  // The run's own temporary directory (TMPDIR), checked empty and removed at the end.
  globalSetup: '<rootDir>/test/support/jest-global-setup.ts',
  globalTeardown: '<rootDir>/test/support/jest-global-teardown.ts',
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['<rootDir>/{apps,libs,test}/**/*.spec.ts'],
    },
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['<rootDir>/{apps,libs,test}/**/*.int-spec.ts'],
      // testTimeout is not a per-project option in jest; the setup file sets it for this tier.
      setupFilesAfterEnv: ['<rootDir>/test/support/integration-timeout.ts'],
    },
    {
      ...shared,
      // Issue 32's attacks against the built embedded server (test/adversarial/README.md).
      displayName: 'adversarial',
      testMatch: ['<rootDir>/test/adversarial/**/*.adv-spec.ts'],
      setupFilesAfterEnv: ['<rootDir>/test/adversarial/support/adversarial-timeout.ts'],
    },
  ],
};

export default config;
