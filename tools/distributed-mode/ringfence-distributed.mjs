// The distributed mode on one machine without containers, in one command (docs/distributed-mode.md,
// "In one command"): the per-app PostgreSQL databases, the Kafka stand-in (unless KAFKA_BROKERS is
// set), the Bolt stand-in (unless NEO4J_URL is set), the six apps from dist/ with the settings the
// guide gives, until the gateway is ready; then it prints where the gateway answers and with which
// key, and on Ctrl-C, SIGTERM or `stop` stops everything it started, the gateway first.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ensureDatabases, redacted } from './databases.mjs';
import { launch, waitUntilReady } from './processes.mjs';
import { APPS, DEFAULT_PORTS, DEFAULT_STATE_DIR, ROOT, USAGE, UsageError, WORKERS, clientHost, parseArguments, statePaths } from './settings.mjs';

const say = (line) => process.stdout.write(`ringfence distributed: ${line}\n`);
/** A path as the reader can type it: relative to here when it is below, else absolute. */
const shown = (path) => {
  const below = relative(process.cwd(), path);
  return below === '' ? '.' : below.startsWith('..') ? path : below;
};

/** A secret made once and kept in the state directory (mode 0600). */
function secretFile(path, bytes) {
  if (!existsSync(path) || readFileSync(path, 'utf8').trim() === '') writeFileSync(path, `${randomBytes(bytes).toString('hex')}\n`, { mode: 0o600 });
  return readFileSync(path, 'utf8').trim();
}

function prepareState(options, paths) {
  if (existsSync(paths.pidFile)) {
    const pid = Number(readFileSync(paths.pidFile, 'utf8'));
    if (isRunning(pid)) throw new Error(`already running (process ${pid}); stop it first: npm run distributed -- stop --state-dir ${shown(options.stateDir)}`);
  }
  if (options.fresh) for (const app of APPS) rmSync(paths.dataDir(app), { recursive: true, force: true });
  for (const directory of [options.stateDir, paths.logs, paths.pids, ...APPS.map(paths.dataDir)]) mkdirSync(directory, { recursive: true, mode: 0o700 });
  writeFileSync(paths.pidFile, `${process.pid}\n`);
  return { adminKey: secretFile(paths.adminKey, 24), internalKey: secretFile(paths.internalKey, 32) };
}

function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Where a process's output and process id go. */
function outputFiles(options, name) {
  const paths = statePaths(options.stateDir);
  return { logFile: join(paths.logs, `${name}.log`), pidFile: join(paths.pids, `${name}.pid`) };
}

/** The Kafka stand-in, exactly as the guide starts it by hand: options before --all-topics. */
async function startKafka(options, started) {
  if (options.kafkaBrokers) {
    say(`Kafka: ${options.kafkaBrokers} (KAFKA_BROKERS; every topic must exist, docs/distributed-mode.md step 2)`);
    return { brokers: options.kafkaBrokers, standIn: false };
  }
  const mock = launch('kafka-mock', join(ROOT, 'test/tools/kafka-mock/kafka-mock.sh'), ['--partitions', '3', '--until-signal', '--all-topics'], {
    env: process.env,
    cwd: ROOT,
    ...outputFiles(options, 'kafka-mock'),
  });
  started.push(mock);
  const brokers = (await mock.waitForLine(/^[^\s,]+:\d+(,[^\s,]+:\d+)*$/, 60_000)).trim();
  say(`Kafka stand-in at ${brokers} (librdkafka's mock cluster, in memory, every topic with 3 partitions; not for production)`);
  return { brokers, standIn: true };
}

async function startBolt(options, started) {
  if (options.neo4jUrl) {
    say(`Neo4j: ${options.neo4jUrl} (NEO4J_URL)`);
    return { NEO4J_URL: options.neo4jUrl, NEO4J_USER: process.env.NEO4J_USER ?? 'neo4j', NEO4J_PASSWORD: process.env.NEO4J_PASSWORD ?? '' };
  }
  const bolt = launch('bolt-server', join(ROOT, 'test/tools/bolt/bolt-server.sh'), [], { env: process.env, cwd: ROOT, ...outputFiles(options, 'bolt-server') });
  started.push(bolt);
  const url = (await bolt.waitForLine(/^bolt:\/\//, 60_000)).trim();
  say(`Bolt stand-in for Neo4j at ${url} (the project's test server, in memory; not for production)`);
  return { NEO4J_URL: url, NEO4J_USER: 'neo4j', NEO4J_PASSWORD: 'stand-in' };
}

/** Every app's environment: the caller's, then the guide's settings for this run. */
function appEnvironment(app, run) {
  const { options, paths, databases, kafka, secrets } = run;
  const env = {
    ...process.env,
    HOST: options.host,
    PORT: String(options.ports === 'auto' ? 0 : DEFAULT_PORTS[app]),
    DATA_DIR: paths.dataDir(app),
    DATABASE_URL: databases[app],
    KAFKA_BROKERS: kafka.brokers,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
  };
  // The stand-in answers a fetch only after the whole wait (its README): 5 ms, as the project's tests, keeps a checkpoint far inside RPC_TIMEOUT_MS.
  if (kafka.standIn) env.KAFKA_CONSUMER_MAX_WAIT_MS = process.env.KAFKA_CONSUMER_MAX_WAIT_MS ?? '5';
  if (app === 'graph') Object.assign(env, run.graphStore);
  if (app === 'lookup') env.INTERNAL_API_KEY = secrets.internalKey;
  if (app === 'gateway') Object.assign(env, { ADMIN_API_KEY: secrets.adminKey, INTERNAL_API_KEY: secrets.internalKey, LOOKUP_URL: run.urls.lookup });
  return env;
}

/** Starts one app from dist/ and waits for its `listening` line: the port it bound. */
async function startApp(app, run) {
  if (run.stopping) throw new Error(`not starting ${app}: stopping`);
  const service = launch(app, process.execPath, [join(ROOT, 'dist/apps', app, 'src/main.js')], { env: appEnvironment(app, run), cwd: ROOT, ...outputFiles(run.options, app) });
  run.started.push(service);
  const listening = JSON.parse(await service.waitForLine(/"msg":"listening"/, run.options.readyTimeoutMs));
  const scheme = app === 'gateway' ? 'https' : 'http';
  run.urls[app] = `${scheme}://${clientHost(run.options.host)}:${listening.port}`;
  const ca = app === 'gateway' ? () => (existsSync(run.paths.gatewayCa) ? readFileSync(run.paths.gatewayCa) : undefined) : undefined;
  await waitUntilReady(service, `${run.urls[app]}/health/ready`, { ca, timeoutMs: run.options.readyTimeoutMs });
  say(`${app} ready at ${run.urls[app]} (log: ${shown(join(run.paths.logs, `${app}.log`))})`);
}

function build(options) {
  if (!options.build) return;
  say('building dist/ where a source changed (npm start does the same; --no-build skips it)');
  execFileSync(process.execPath, [join(ROOT, 'tools/build.mjs'), '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
}

function printWelcome(run) {
  const { paths } = run;
  const key = existsSync(paths.bootstrapKey) ? readFileSync(paths.bootstrapKey, 'utf8').trim() : undefined;
  const lines = [
    '',
    'Ringfence is running in the distributed mode: six apps, each with a database of its own, over Kafka.',
    `  RINGFENCE_URL=${run.urls.gateway}`,
    `  RINGFENCE_CA_FILE=${paths.gatewayCa}`,
    key === undefined
      ? `  (no bootstrap key in ${shown(paths.bootstrapKey)}: the account "default" came from elsewhere; make a key with ADMIN_API_KEY=$(cat ${shown(paths.adminKey)}) npx ringfence accounts create NAME)`
      : `  RINGFENCE_API_KEY=${key}`,
    `  ADMIN_API_KEY is in ${shown(paths.adminKey)}; the apps' logs are in ${shown(paths.logs)}/, their process ids in ${shown(paths.pids)}/`,
    '',
    'A first checkpoint:',
    `  curl --cacert ${shown(paths.gatewayCa)} ${run.urls.gateway}/v2/customer -H "Authorization: token $(cat ${shown(paths.bootstrapKey)})" \\`,
    `    -H 'Content-Type: application/json' -d '{"timestamp": 1763800000, "customer": {"customerId": "cus-1", "email": "ada@example.com"}}'`,
    '',
    `Stop everything with Ctrl-C, or from another terminal: npm run distributed -- stop${run.options.stateDir === DEFAULT_STATE_DIR ? '' : ` --state-dir ${shown(run.options.stateDir)}`}`,
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** Stops what was started, the gateway first and the stand-ins last; true when every app exited 0. */
async function stopAll(started) {
  const apps = started.filter(({ name }) => APPS.includes(name));
  const standIns = started.filter(({ name }) => !APPS.includes(name));
  let clean = true;
  const stopEach = async (services) =>
    Promise.all(
      services.map(async (service) => {
        const { code, signal } = await service.stop();
        if (APPS.includes(service.name) && code !== 0) clean = false;
        say(`${service.name} stopped (${signal ? `signal ${signal}` : `status ${code}`})`);
      }),
    );
  await stopEach(apps.filter(({ name }) => name === 'gateway'));
  await stopEach(apps.filter(({ name }) => name !== 'gateway'));
  await stopEach(standIns);
  return clean;
}

async function start(options) {
  const paths = statePaths(options.stateDir);
  build(options);
  const secrets = prepareState(options, paths);
  const run = { options, paths, secrets, started: [], urls: {}, databases: {}, kafka: undefined, graphStore: undefined };
  let stopping;
  const stop = (reason) => {
    run.stopping = true;
    stopping ??= (async () => {
      say(`stopping (${reason})`);
      const clean = await stopAll(run.started);
      rmSync(paths.pidFile, { force: true });
      process.exit(clean && reason !== 'a start that failed' ? 0 : 1);
    })();
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => stop(signal));
  try {
    const { urls, created } = await ensureDatabases(options.postgresUrl, options.databasePrefix, APPS, { fresh: options.fresh });
    run.databases = urls;
    say(`PostgreSQL at ${redacted(options.postgresUrl)}: databases ${APPS.map((app) => `${options.databasePrefix}_${app}`).join(', ')} (${created.length} created)`);
    [run.kafka, run.graphStore] = await Promise.all([startKafka(options, run.started), startBolt(options, run.started)]);
    await Promise.all(WORKERS.map((app) => startApp(app, run)));
    await startApp('gateway', run);
    printWelcome(run);
    for (const service of run.started) void service.exited.then(({ code, signal }) => stopping ?? say(`${service.name} exited (${signal ?? `status ${code}`}); see ${shown(join(paths.logs, `${service.name}.log`))}`));
  } catch (error) {
    process.stderr.write(`ringfence distributed: ${error.message}\n`);
    stop('a start that failed');
  }
}

/** `stop`: SIGTERM to the script that `start` left running, then wait until it is gone. */
async function stopRunning(options) {
  const { pidFile } = statePaths(options.stateDir);
  const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : NaN;
  if (!Number.isInteger(pid) || !isRunning(pid)) {
    say(`nothing running for ${shown(options.stateDir)}`);
    return;
  }
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + 90_000;
  while (isRunning(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
  say(isRunning(pid) ? `process ${pid} is still stopping after 90 s` : `stopped (process ${pid})`);
  process.exitCode = isRunning(pid) ? 1 : 0;
}

try {
  const options = parseArguments(process.argv.slice(2));
  if (options.command === 'help') process.stdout.write(`${USAGE}\n`);
  else await (options.command === 'stop' ? stopRunning(options) : start(options));
} catch (error) {
  process.stderr.write(`ringfence distributed: ${error.message}\n${error instanceof UsageError ? `\n${USAGE}\n` : ''}`);
  process.exitCode = error instanceof UsageError ? 2 : 1;
}
