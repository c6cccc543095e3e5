import pg from 'pg';

/** The role the apps connect as; a development setting, as in docs/distributed-mode.md. */
export const APP_ROLE = { name: 'ringfence', password: 'ringfence' };

const quoted = (identifier) => `"${identifier.replaceAll('"', '""')}"`;

/**
 * One PostgreSQL database per app (`<prefix>_<app>`), owned by the role `ringfence`, created
 * with the administrator's connection (`postgres://postgres@127.0.0.1:5432/postgres` by
 * default: no sudo, no psql needed). Existing databases are kept, unless `fresh` drops them
 * first. Returns each app's DATABASE_URL.
 */
export async function ensureDatabases(adminUrl, prefix, apps, { fresh = false } = {}) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect().catch((error) => {
    throw new Error(`cannot connect to PostgreSQL as ${redacted(adminUrl)} (${error.message}); set --postgres to an administrator's URL`);
  });
  const created = [];
  try {
    await admin.query(
      `DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${APP_ROLE.name}') THEN CREATE ROLE ${APP_ROLE.name} LOGIN PASSWORD '${APP_ROLE.password}'; END IF; END $$`,
    );
    for (const app of apps) {
      const name = `${prefix}_${app}`;
      if (fresh) await admin.query(`DROP DATABASE IF EXISTS ${quoted(name)} WITH (FORCE)`);
      const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (rowCount === 0) {
        await admin.query(`CREATE DATABASE ${quoted(name)} OWNER ${APP_ROLE.name}`);
        created.push(name);
      }
    }
  } finally {
    await admin.end();
  }
  const urls = Object.fromEntries(apps.map((app) => [app, databaseUrl(adminUrl, `${prefix}_${app}`)]));
  return { urls, created };
}

function databaseUrl(adminUrl, name) {
  const url = new URL(adminUrl);
  url.username = APP_ROLE.name;
  url.password = APP_ROLE.password;
  url.pathname = `/${name}`;
  return url.toString();
}

export function redacted(url) {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}
