import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { ALL_TOPICS } from '@ringfence/contracts';
import { describeObject, isKubernetesObject, validateKubernetesObject, type KubernetesObject } from './support/kubernetes-models';
import { isKustomizationFile, kubectlVersion, kustomizationDirs as kustomizationDirsOf, podSpecOf, readKustomization, renderKustomization } from './support/kubectl-kustomize';
import { DISTRIBUTED_APPS, K8S_DIR, REPO_ROOT } from './support/repo-paths';
import { isRecord, listYamlFiles, readYamlDocuments } from './support/yaml-files';

/*
 * k8s/ as `kubectl apply -k` sees it: every kustomization rendered by the real renderer
 * (`kubectl kustomize`, support/kubectl-kustomize.ts), every rendered object validated against
 * the Kubernetes OpenAPI schema (kubernetes-models), and what each overlay promises: dev brings
 * its own Kafka, Neo4j and PostgreSQL and points the apps at them; prod deploys none of them and
 * expects the platform's. Cross-checks between objects are in k8s-workloads.spec.ts.
 */

const yamlFiles = listYamlFiles(K8S_DIR);
const show = (file: string) => relative(REPO_ROOT, file);
const kustomizationDirs = kustomizationDirsOf(yamlFiles).map(show);
const isExampleFile = (file: string) => /\.example\.ya?ml$/.test(file);

/** The files a kustomization names (resources, bases, patches), resolved; folders are skipped. */
function referencedFiles(dir: string): string[] {
  const kustomization = readKustomization(dir);
  const entries = ['resources', 'bases', 'patchesStrategicMerge', 'patches', 'patchesJson6902'].flatMap((field) => {
    const value = kustomization[field];
    return Array.isArray(value) ? value : [];
  });
  const paths = entries.flatMap((entry: unknown) => (typeof entry === 'string' ? [entry] : isRecord(entry) && typeof entry.path === 'string' ? [entry.path] : []));
  return paths.map((path) => resolve(dir, path)).filter((path) => /\.ya?ml$/.test(path));
}

const renders = new Map<string, KubernetesObject[]>();
/** Rendered once per kustomization: each `kubectl kustomize` is a process. */
function rendered(dir: string): KubernetesObject[] {
  let objects = renders.get(dir);
  if (!objects) {
    objects = renderKustomization(resolve(REPO_ROOT, dir));
    renders.set(dir, objects);
  }
  return objects;
}
const find = (objects: KubernetesObject[], kind: string, name: string) => objects.find((object) => object.kind === kind && object.metadata.name === name);
const ofKind = (objects: KubernetesObject[], kind: string) => objects.filter((object) => object.kind === kind);

interface Container {
  name: string;
  image?: string;
  ports?: { name?: string; containerPort: number }[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[];
  volumeMounts?: { name: string; mountPath: string }[];
}
interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  volumes?: { name: string; configMap?: { name: string } }[];
  enableServiceLinks?: boolean;
}
const podOf = (workload: KubernetesObject) => podSpecOf(workload) as unknown as PodSpec;
const envOf = (container: Container, name: string) => container.env?.find((variable) => variable.name === name);
const secretData = (secret: KubernetesObject) =>
  Object.fromEntries(Object.entries((secret.data ?? {}) as Record<string, string>).map(([key, value]) => [key, Buffer.from(value, 'base64').toString('utf8')]));
/** The number of a Service's port, by port name. */
const servicePort = (service: KubernetesObject | undefined, name: string) =>
  (service?.spec as { ports?: { name?: string; port: number }[] } | undefined)?.ports?.find((port) => port.name === name)?.port;

const DEPENDENCIES = [
  { name: 'kafka', image: /^apache\/kafka:\d+\.\d+\.\d+$/ },
  { name: 'neo4j', image: /^neo4j:5[.\d]*-community$/ },
  { name: 'postgres', image: /^postgres:1[5-9](\.\d+)?(-alpine)?$/ },
] as const;

describe('k8s/ files', () => {
  it('renders with kubectl kustomize (kubectl version --client answers)', () => {
    // Which kubectl (and so which kustomize) rendered, in the report of a failing run.
    expect(kubectlVersion()).toMatch(/Client Version/);
  });

  it('has a kustomize base and the dev and prod overlays', () => {
    expect(kustomizationDirs).toEqual(expect.arrayContaining(['k8s/base', 'k8s/overlays/dev', 'k8s/overlays/prod']));
  });

  it.each(yamlFiles.map(show))('%s is well-formed YAML without duplicate keys', (file) => {
    expect(() => readYamlDocuments(`${REPO_ROOT}/${file}`)).not.toThrow();
  });

  it('has no stray YAML: each file is a kustomization, named by one, or an *.example.yaml', () => {
    const referenced = new Set(kustomizationDirs.flatMap((dir) => referencedFiles(resolve(REPO_ROOT, dir))));
    const strays = yamlFiles.filter((file) => !isKustomizationFile(file) && !isExampleFile(file) && !referenced.has(file));
    expect(strays.map(show)).toEqual([]);
  });

  it('never names an *.example.yaml in a kustomization (they hold placeholder secrets)', () => {
    const named = kustomizationDirs.flatMap((dir) => referencedFiles(resolve(REPO_ROOT, dir)));
    expect(named.filter(isExampleFile).map(show)).toEqual([]);
  });

  it('ships an example of the Secret the apps read', () => {
    const examples = yamlFiles.filter(isExampleFile).flatMap((file) => readYamlDocuments(file));
    expect(examples.filter((document) => isKubernetesObject(document) && document.kind === 'Secret')).not.toHaveLength(0);
  });

  it('tells operators (k8s/README.md) every Kafka topic to create beforehand', () => {
    const readme = readFileSync(`${K8S_DIR}/README.md`, 'utf8');
    expect(ALL_TOPICS.filter((topic) => !readme.includes(topic))).toEqual([]);
  });
});

describe.each(kustomizationDirs)('kubectl kustomize %s', (dir) => {
  it('renders', () => {
    expect(rendered(dir).length).toBeGreaterThan(0);
  });

  it('renders only known Kubernetes kinds, each passing its OpenAPI schema', () => {
    const problems = rendered(dir).flatMap((object) => {
      try {
        validateKubernetesObject(object);
        return [];
      } catch (error) {
        return [(error as Error).message];
      }
    });
    expect(problems).toEqual([]);
  });

  it('renders each object once (kind, namespace and name)', () => {
    const keys = rendered(dir).map((object) => `${object.kind}/${object.metadata.namespace ?? ''}/${object.metadata.name}`);
    expect(keys.filter((key, index) => keys.indexOf(key) !== index)).toEqual([]);
  });

  it('sets its namespace only in overlays, and then ships that Namespace', () => {
    const namespace = readKustomization(resolve(REPO_ROOT, dir)).namespace;
    if (dir === 'k8s/base') {
      expect(namespace).toBeUndefined();
      return;
    }
    expect(namespace).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
    expect(ofKind(rendered(dir), 'Namespace').map((object) => object.metadata.name)).toEqual([namespace]);
  });
});

describe('the dev overlay: the whole system on a fresh cluster', () => {
  const objects = () => rendered('k8s/overlays/dev');
  const statefulSet = (name: string) => find(objects(), 'StatefulSet', name);
  const mainContainer = (workload: KubernetesObject | undefined) => (workload ? podOf(workload).containers[0] : undefined);
  const config = () => (find(objects(), 'ConfigMap', 'ringfence-config')?.data ?? {}) as Record<string, string>;
  const secret = () => {
    const found = find(objects(), 'Secret', 'ringfence-secrets');
    if (!found) throw new Error('the dev overlay renders no Secret ringfence-secrets');
    return secretData(found);
  };

  it.each(DEPENDENCIES.map((dependency) => [dependency.name, dependency.image] as const))(
    'deploys %s from its official image as a StatefulSet with a Service of the same name',
    (name, image) => {
      const workload = statefulSet(name);
      if (!workload) throw new Error(`no StatefulSet ${name}`);
      expect(mainContainer(workload)?.image).toMatch(image);
      const service = find(objects(), 'Service', name);
      const spec = workload.spec as { serviceName?: string; template: { metadata: { labels: Record<string, string> } } };
      expect(spec.serviceName).toBe(name);
      const selector = (service?.spec as { selector?: Record<string, string> } | undefined)?.selector ?? {};
      expect(Object.keys(selector).length).toBeGreaterThan(0);
      expect(spec.template.metadata.labels).toMatchObject(selector);
    },
  );

  it('keeps the Kubernetes service variables out of the dependencies, whose images turn KAFKA_*/NEO4J_* variables into settings', () => {
    const withLinks = DEPENDENCIES.map((dependency) => statefulSet(dependency.name))
      .filter((workload): workload is KubernetesObject => workload !== undefined && podOf(workload).enableServiceLinks !== false)
      .map(describeObject);
    expect(withLinks).toEqual([]);
  });

  it('points KAFKA_BROKERS at the Kafka Service, whose broker advertises that same address', () => {
    const address = `kafka:${servicePort(find(objects(), 'Service', 'kafka'), 'kafka')}`;
    expect(config().KAFKA_BROKERS).toBe(address);
    const kafka = mainContainer(statefulSet('kafka'));
    expect(envOf(kafka!, 'KAFKA_ADVERTISED_LISTENERS')?.value).toBe(`PLAINTEXT://${address}`);
    expect(envOf(kafka!, 'KAFKA_AUTO_CREATE_TOPICS_ENABLE')?.value).toBe('false');
  });

  it('points NEO4J_URL at the Neo4j Service, with the user and password Neo4j is started with', () => {
    const bolt = servicePort(find(objects(), 'Service', 'neo4j'), 'bolt');
    expect(config().NEO4J_URL).toMatch(new RegExp(`^(bolt|neo4j)://neo4j:${bolt}$`));
    const neo4j = mainContainer(statefulSet('neo4j'))!;
    // NEO4J_AUTH=user/password, the password from the same Secret key the graph app reads.
    const auth = envOf(neo4j, 'NEO4J_AUTH')?.value ?? '';
    const [user, reference] = auth.split('/');
    expect(user).toBe(config().NEO4J_USER);
    const passwordVariable = /^\$\((\w+)\)$/.exec(reference)?.[1];
    expect(envOf(neo4j, passwordVariable ?? '-')?.valueFrom?.secretKeyRef).toEqual({ name: 'ringfence-secrets', key: 'NEO4J_PASSWORD' });
    expect(secret().NEO4J_PASSWORD.length).toBeGreaterThanOrEqual(8); // Neo4j 5 refuses shorter ones
  });

  it('points DATABASE_URL at the PostgreSQL Service, with the user, password and database PostgreSQL is initialised with', () => {
    const url = new URL(secret().DATABASE_URL);
    const postgres = mainContainer(statefulSet('postgres'))!;
    expect({ host: url.hostname, port: Number(url.port) }).toEqual({ host: 'postgres', port: servicePort(find(objects(), 'Service', 'postgres'), 'postgres') });
    expect(decodeURIComponent(url.username)).toBe(envOf(postgres, 'POSTGRES_USER')?.value);
    expect(url.pathname).toBe(`/${envOf(postgres, 'POSTGRES_DB')?.value}`);
    expect(envOf(postgres, 'POSTGRES_PASSWORD')?.valueFrom?.secretKeyRef).toEqual({ name: 'ringfence-secrets', key: 'POSTGRES_PASSWORD' });
    expect(decodeURIComponent(url.password)).toBe(secret().POSTGRES_PASSWORD);
  });

  it('renders the Secret with every key the example Secret declares (development-only values)', () => {
    const example = yamlFiles
      .filter(isExampleFile)
      .flatMap((file) => readYamlDocuments(file))
      .find((document): document is KubernetesObject => isKubernetesObject(document) && document.kind === 'Secret' && document.metadata.name === 'ringfence-secrets');
    const keys = Object.keys({ ...(example?.data as object | undefined), ...(example?.stringData as object | undefined) });
    expect(keys.filter((key) => secret()[key] === undefined)).toEqual([]);
    expect(ofKind(objects(), 'Secret').map((object) => object.metadata.name)).toEqual(['ringfence-secrets']);
  });

  it('creates every Kafka topic of ALL_TOPICS with a Job, from a ConfigMap that lists exactly those', () => {
    const topics = String((find(objects(), 'ConfigMap', 'kafka-topics')?.data as Record<string, string> | undefined)?.topics ?? '')
      .split('\n')
      .filter((line) => line.trim() !== '');
    expect([...topics].sort()).toEqual([...ALL_TOPICS].sort());
    const job = find(objects(), 'Job', 'kafka-init-topics');
    if (!job) throw new Error('no Job kafka-init-topics');
    const container = podOf(job).containers[0];
    expect(container.image).toBe(mainContainer(statefulSet('kafka'))?.image);
    expect(envOf(container, 'BOOTSTRAP_SERVER')?.value).toBe(config().KAFKA_BROKERS);
    expect(podOf(job).volumes?.map((volume) => volume.configMap?.name)).toContain('kafka-topics');
  });

  it.each([...DISTRIBUTED_APPS])('starts %s only once its databases accept connections and every topic exists (init containers)', (app) => {
    const workload = find(objects(), 'Deployment', app);
    if (!workload) throw new Error(`no Deployment ${app}`);
    const pod = podOf(workload);
    const init = new Map((pod.initContainers ?? []).map((container) => [container.name, container]));
    const waitFor = (envOf(init.get('wait-for-services') ?? { name: '' }, 'WAIT_FOR')?.value ?? '').split(',');
    const postgres = `postgres:${servicePort(find(objects(), 'Service', 'postgres'), 'postgres')}`;
    const neo4j = `neo4j:${servicePort(find(objects(), 'Service', 'neo4j'), 'bolt')}`;
    expect([...waitFor].sort()).toEqual(app === 'graph' ? [neo4j, postgres].sort() : [postgres]);
    // It runs the wait script with the app image's own node (its ENTRYPOINT).
    expect(init.get('wait-for-services')?.image).toBe(pod.containers[0].image);
    const topicsWait = init.get('wait-for-topics');
    expect(topicsWait?.image).toBe(mainContainer(statefulSet('kafka'))?.image);
    expect(envOf(topicsWait!, 'BOOTSTRAP_SERVER')?.value).toBe(config().KAFKA_BROKERS);
    const mounted = new Set(topicsWait?.volumeMounts?.map((mount) => mount.name));
    expect(pod.volumes?.filter((volume) => mounted.has(volume.name)).map((volume) => volume.configMap?.name)).toContain('kafka-topics');
  });
});

describe('the prod overlay: the apps only, against the platform’s managed Kafka, Neo4j and PostgreSQL', () => {
  const objects = () => rendered('k8s/overlays/prod');

  it('deploys no dependency, stores no data but the lookup service\'s credentials store, and renders no Secret', () => {
    const kinds = new Set(['StatefulSet', 'Job', 'CronJob', 'PersistentVolumeClaim', 'Secret', 'DaemonSet']);
    // The breached-credentials store is files the lookup service serves (docs/credentials.md): its one volume.
    expect(objects().filter((object) => kinds.has(object.kind)).map(describeObject)).toEqual(ofKind(objects(), 'PersistentVolumeClaim').filter((claim) => /lookup|credentials/.test(claim.metadata.name)).map(describeObject));
    expect(ofKind(objects(), 'PersistentVolumeClaim')).toHaveLength(1);
    expect(ofKind(objects(), 'Deployment').map((object) => object.metadata.name).sort()).toEqual([...DISTRIBUTED_APPS].sort());
    expect(ofKind(objects(), 'Service').map((object) => object.metadata.name).sort()).toEqual([...DISTRIBUTED_APPS].sort());
  });

  it('has no init container waiting for a dependency it does not deploy', () => {
    const withInit = ofKind(objects(), 'Deployment').filter((workload) => (podOf(workload).initContainers ?? []).length > 0);
    expect(withInit.map(describeObject)).toEqual([]);
  });

  it('names the platform’s Kafka and Neo4j in its ConfigMap (documented values to fill in)', () => {
    const data = (find(objects(), 'ConfigMap', 'ringfence-config')?.data ?? {}) as Record<string, string>;
    expect(data.KAFKA_BROKERS).toMatch(/^[^\s,:]+\.[^\s,:]+:\d+(,[^\s,:]+:\d+)*$/);
    expect(data.NEO4J_URL).toMatch(/^(bolt|neo4j)(\+s|\+ssc)?:\/\/[^/]+\.[^/]+/);
    const patch = readFileSync(resolve(K8S_DIR, 'overlays/prod/patches/configmap.yaml'), 'utf8');
    expect(patch).toMatch(/FILL IN/);
  });

  it('is the dev overlay less the dependencies: the same apps, in its own namespace', () => {
    const dev = rendered('k8s/overlays/dev');
    const apps = (list: KubernetesObject[]) => ofKind(list, 'Deployment').map((object) => object.metadata.name).sort();
    expect(apps(objects())).toEqual(apps(dev));
    const namespaces = (list: KubernetesObject[]) => new Set(list.flatMap((object) => (object.metadata.namespace ? [object.metadata.namespace] : [])));
    expect([...namespaces(objects())].filter((namespace) => namespaces(dev).has(namespace))).toEqual([]);
  });
});
