import type { EnvironmentContext, JestEnvironmentConfig } from '@jest/environment';
import { TestEnvironment } from 'jest-environment-node';
import { loadPGliteRuntime, PGLITE_RUNTIME_GLOBAL } from '../pglite.loader';

/**
 * The node test environment plus a PGlite loaded by Node itself (this module runs outside
 * the test sandbox), where its dynamic `import()` works. Select it in a test file that opens
 * the embedded database with the docblock
 * `@jest-environment ./libs/persistence/src/test-support/embedded-database.environment.ts`.
 */
export default class EmbeddedDatabaseTestEnvironment extends TestEnvironment {
  constructor(config: JestEnvironmentConfig, context: EnvironmentContext) {
    super(config, context);
    this.global[PGLITE_RUNTIME_GLOBAL] = loadPGliteRuntime();
  }
}
