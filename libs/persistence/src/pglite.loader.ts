// The node-postgres entry is published only through package.json `exports`, which the
// repository's `moduleResolution: node` does not read, so its typings are named by file.
type PGliteNodePostgresModule = typeof import('@electric-sql/pglite/dist/node-postgres/index');

/**
 * PGlite's node-postgres adapter, which lets the `pg` driver talk to a PGlite database (here the
 * one in the worker thread). `require`, not `import`: the entry cannot be imported by name.
 */
export function loadCreatePgConfig(): PGliteNodePostgresModule['createPgConfig'] {
  return (require('@electric-sql/pglite/node-postgres') as PGliteNodePostgresModule).createPgConfig;
}
