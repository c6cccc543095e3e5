import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..', '..');
/** Start order: the workers (any order), then the gateway, so its first requests find them listening. */
export const WORKERS = ['ingestion', 'graph', 'scoring', 'lookup', 'labelling'];
export const APPS = [...WORKERS, 'gateway'];
/** The ports of docs/distributed-mode.md; `--ports auto` asks the OS for free ones instead. */
export const DEFAULT_STATE_DIR = resolve(ROOT, 'data', 'distributed');
export const DEFAULT_PORTS = { ingestion: 8081, graph: 8082, scoring: 8083, lookup: 8084, labelling: 8085, gateway: 8443 };

export const USAGE = `usage: npm run distributed -- [start] [options]     start everything, in the foreground until Ctrl-C
       npm run distributed -- stop [--state-dir DIR]  stop what a start in the background started

options:
  --state-dir DIR        the apps' DATA_DIRs, logs, keys and the script's pid (default data/distributed)
  --postgres URL         an administrator's connection, to create the databases (default
                         $POSTGRES_ADMIN_URL or postgres://postgres@127.0.0.1:5432/postgres)
  --database-prefix P    the databases are P_gateway, P_ingestion, ... (default ringfence)
  --fresh                drop those databases first, and start with empty app data
  --host ADDRESS         the address every app binds, HOST (default 127.0.0.1: this machine only)
  --ports auto           free ports chosen by the OS (default: gateway 8443, workers 8081-8085)
  --no-build             do not build (default: npm start's incremental build when a source changed)
  --ready-timeout S      seconds to wait for every app to be ready (default 120)

Kafka: KAFKA_BROKERS set uses that cluster; unset starts the Kafka stand-in (test/tools/kafka-mock).
Neo4j: NEO4J_URL (with NEO4J_USER, NEO4J_PASSWORD) set uses it; unset starts the Bolt stand-in
(test/tools/bolt). Any other setting of the README's table in the environment reaches every app.`;

/** A command line the script does not take: answered with the usage. */
export class UsageError extends Error {}

const VALUE_OPTIONS = { '--state-dir': 'stateDir', '--postgres': 'postgresUrl', '--database-prefix': 'databasePrefix', '--host': 'host', '--ports': 'ports', '--ready-timeout': 'readyTimeout' };

/** The command line and environment as the script's settings; throws with the usage on anything else. */
export function parseArguments(argv, env = process.env) {
  const options = {
    command: 'start',
    stateDir: DEFAULT_STATE_DIR,
    postgresUrl: env.POSTGRES_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
    databasePrefix: 'ringfence',
    host: '127.0.0.1',
    ports: 'default',
    readyTimeout: '120',
    fresh: false,
    build: true,
  };
  const args = [...argv];
  if (args[0] === 'start' || args[0] === 'stop') options.command = args.shift();
  if (args.includes('--help') || args.includes('-h')) return { command: 'help' };
  while (args.length > 0) {
    const flag = args.shift();
    if (flag === '--fresh') options.fresh = true;
    else if (flag === '--no-build') options.build = false;
    else if (flag in VALUE_OPTIONS && args.length > 0) options[VALUE_OPTIONS[flag]] = args.shift();
    else throw new UsageError(`not understood: ${flag}`);
  }
  if (!/^[a-z_][a-z0-9_]{0,40}$/.test(options.databasePrefix)) throw new UsageError('--database-prefix: lower-case letters, digits and _ only');
  if (options.ports !== 'default' && options.ports !== 'auto') throw new UsageError('--ports: auto, or leave it out for the documented ports');
  const readyTimeoutMs = Number(options.readyTimeout) * 1000;
  if (!Number.isFinite(readyTimeoutMs) || readyTimeoutMs <= 0) throw new UsageError('--ready-timeout: a number of seconds');
  const stateDir = resolve(process.cwd(), options.stateDir);
  return { ...options, stateDir, readyTimeoutMs, kafkaBrokers: env.KAFKA_BROKERS || undefined, neo4jUrl: env.NEO4J_URL || undefined };
}

/** Where each file of a run lives under the state directory. */
export function statePaths(stateDir) {
  return {
    pidFile: join(stateDir, 'ringfence-distributed.pid'),
    adminKey: join(stateDir, 'admin-key'),
    internalKey: join(stateDir, 'internal-key'),
    logs: join(stateDir, 'logs'),
    /** `<name>.pid` of each process while it runs. */
    pids: join(stateDir, 'pids'),
    dataDir: (app) => join(stateDir, app),
    bootstrapKey: join(stateDir, 'gateway', 'bootstrap-key'),
    gatewayCa: join(stateDir, 'gateway', 'tls', 'cert.pem'),
  };
}

/** How a client on this machine reaches an address the apps bind. */
export function clientHost(host) {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
