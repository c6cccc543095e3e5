import type { DynamicModule, INestApplication, Type } from '@nestjs/common';
import { PersistenceModule, type PersistenceOptions, ownedSchemasOf } from '@ringfence/persistence';
import { ConfigError, type Logger, type RingfenceConfig, createLogger, loadConfig } from '@ringfence/platform';
import { BusModule } from './bus/bus.module';
import { connectBusTransport } from './bus/bus-transport';
import { stopOnSignals } from './graceful-stop';
import { createHttpApp } from './http/http-app.factory';
import { loadTlsMaterial } from './http/tls-certificate';
import { RuntimeModule } from './runtime.module';

export interface ServiceDefinition {
  /** Names the process in logs, metrics and Kafka client ids. */
  serviceName: string;
  /** The service modules this process runs (the standalone app runs all of them). */
  modules: Array<Type<unknown>>;
  /** The gateway serves HTTPS on 8443; workers serve their ops endpoints over HTTP on 8080. */
  https: boolean;
  /** Whether the service sends bus requests (it then reads the reply topic). */
  sendsRequests?: boolean;
  /** Extra HTTP setup after the app exists (for example the OpenAPI docs). */
  configure?: (app: INestApplication) => void;
}

export interface RunningService {
  app: INestApplication;
  config: RingfenceConfig;
  logger: Logger;
}

/**
 * Starts one app: config (fails fast, naming the variable), logger, persistence, bus, the
 * service modules and the HTTP side. Every app's main.ts is a call to this.
 */
export async function runService(definition: ServiceDefinition, env: NodeJS.ProcessEnv = process.env): Promise<RunningService> {
  const config = loadConfig(env, { port: definition.https ? 8443 : 8080 });
  const logger = createLogger({ level: config.logLevel, service: definition.serviceName });
  const root: DynamicModule = {
    module: class RingfenceAppModule {},
    imports: [
      RuntimeModule.forRoot({ config, logger }),
      // Without Kafka this process is the only writer, so caches of written state stay true.
      PersistenceModule.forRoot({
        databaseUrl: config.databaseUrl,
        dataDir: config.dataDir,
        soleWriter: config.kafkaBrokers === undefined,
        cacheEntries: config.memoryCacheEntries,
        logger,
        credentials: breachedCredentialsPlacement(definition.serviceName, config),
        // The tables of the services this process runs (their store modules'), and the shared ones.
        schemas: ownedSchemasOf(definition.modules),
      }),
      BusModule.forRoot({ serviceName: definition.serviceName, sendsRequests: definition.sendsRequests ?? false }),
      ...definition.modules,
    ],
  };
  const tls = definition.https ? await loadTlsMaterial(config, logger) : undefined;
  const { app, listen } = await createHttpApp(root, { config, logger, tls });
  connectBusTransport(app);
  definition.configure?.(app);
  // Every module's init and bootstrap hooks first; then the bus, with the controllers' handlers
  // registered; then HTTP, so no request meets a bus that is not started (/health/ready says
  // so too). On close, Nest stops the microservice (the bus) after the HTTP server and before
  // the shutdown hooks, so in-flight handlers finish and commit while the database is open.
  try {
    await app.init();
    await app.startAllMicroservices();
    await listen();
  } catch (error: unknown) {
    // A start that fails half-way (a module's check, the bus) first releases what it opened:
    // the database above all, whose embedded files another start may want next.
    await app.close().catch(() => undefined);
    throw error;
  }
  return { app, config, logger };
}

/**
 * Who holds the breached-credentials store (docs/credentials.md): the embedded app, and in the
 * distributed mode the lookup service; a distributed gateway (LOOKUP_URL set) asks the lookup
 * service; no other process touches it.
 */
function breachedCredentialsPlacement(serviceName: string, config: RingfenceConfig): PersistenceOptions['credentials'] {
  // loadConfig requires INTERNAL_API_KEY with LOOKUP_URL.
  if (serviceName === 'gateway' && config.lookupUrl) return { mode: 'remote', lookupUrl: config.lookupUrl, internalKey: config.internalApiKey ?? '' };
  if (serviceName === 'standalone' || serviceName === 'lookup' || serviceName === 'gateway') return { mode: 'local', key: config.credentialsKey };
  return undefined;
}

/**
 * For main.ts: run; stop gracefully on SIGTERM, SIGINT or SIGHUP (a line when stopping and when
 * stopped, exit status 0: `stopOnSignals`); on a configuration or start-up error print it and
 * exit non-zero. A signal during the start stops the app once it has started.
 */
export function main(definition: ServiceDefinition): void {
  let running: RunningService | undefined;
  const started = runService(definition).then((service) => (running = service));
  // Logged at once, through the app's root logger once it has started (the process exits right after the last line).
  const logger = {
    info: (fields: object, message: string) => running?.logger.info(fields, message),
    error: (fields: object, message: string) => running?.logger.error(fields, message),
  };
  stopOnSignals({ close: async () => (await started).app.close() }, { serviceName: definition.serviceName, logger });
  started.catch((error: unknown) => {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    process.stderr.write(`ringfence ${definition.serviceName} failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
