type PGliteModule = typeof import('@electric-sql/pglite');
// The node-postgres entry is published only through package.json `exports`, which the
// repository's `moduleResolution: node` does not read, so its typings are named by file.
type PGliteNodePostgresModule = typeof import('@electric-sql/pglite/dist/node-postgres/index');

/** The two pieces of PGlite the embedded mode uses. */
export interface PGliteRuntime {
  PGlite: PGliteModule['PGlite'];
  createPgConfig: PGliteNodePostgresModule['createPgConfig'];
}

/**
 * Where a jest test environment leaves a PGlite it loaded outside jest's module sandbox.
 *
 * PGlite loads its WebAssembly and some Node built-ins with dynamic `import()`, which jest's
 * sandbox refuses without `--experimental-vm-modules` (electric-sql/pglite#224). Jest tests
 * that open the embedded database therefore run in `EmbeddedDatabaseTestEnvironment`
 * (test-support), which loads PGlite natively and hands it over here. Outside jest this
 * global is never set and PGlite is an ordinary `require`.
 */
export const PGLITE_RUNTIME_GLOBAL = '__ringfencePGliteRuntime';

export function loadPGliteRuntime(): PGliteRuntime {
  const provided = (globalThis as Record<string, unknown>)[PGLITE_RUNTIME_GLOBAL] as PGliteRuntime | undefined;
  if (provided !== undefined) {
    return provided;
  }
  // require, not import: the node-postgres entry cannot be imported by name (see above).
  const { PGlite } = require('@electric-sql/pglite') as PGliteModule;
  const { createPgConfig } = require('@electric-sql/pglite/node-postgres') as PGliteNodePostgresModule;
  return { PGlite, createPgConfig };
}
