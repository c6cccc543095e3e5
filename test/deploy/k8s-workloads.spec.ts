import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { loadConfig } from '@ringfence/platform';
import { readDockerfile } from './support/dockerfile';
import { describeObject, isKubernetesObject, type KubernetesObject } from './support/kubernetes-models';
import { isNamespaced, kustomizationDirs as kustomizationDirsOf, podSpecOf as podSpecOfWorkload, readKustomization, renderKustomization } from './support/kubectl-kustomize';
import { parseQuantity } from './support/quantity';
import { appEntrypoint, appSource, AUTOSCALED_APPS, DISTRIBUTED_APPS, DOCKERFILE, K8S_DIR, REPO_ROOT } from './support/repo-paths';
import { isRecord, listYamlFiles, readYamlDocuments } from './support/yaml-files';

/*
 * Each kustomization rendered by `kubectl kustomize` (support/kubectl-kustomize.ts), then checked
 * as the cluster would see it: cross-checks between objects that the schema cannot see (a probe
 * on an undeclared port, a Service that selects nothing, a secret key nobody declares, an
 * autoscaler without its target...). Schema validation is in k8s-manifests.spec.ts.
 *
 * "Apps" are the Deployments of the ringfence image; the dev overlay adds its dependencies
 * (StatefulSets of Kafka, Neo4j, PostgreSQL and a Job), which are held to the pod-level rules
 * too: the namespace enforces the restricted Pod Security Standard on every pod.
 */

type Json = Record<string, unknown>;

interface Container {
  name: string;
  image?: string;
  args?: string[];
  command?: string[];
  ports?: { name?: string; containerPort: number }[];
  env?: { name: string; value?: string; valueFrom?: Json }[];
  envFrom?: { configMapRef?: { name: string; optional?: boolean }; secretRef?: { name: string; optional?: boolean } }[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  resources?: { requests?: Record<string, string | number>; limits?: Record<string, string | number> };
  securityContext?: Json;
  volumeMounts?: { name: string; mountPath: string }[];
}

interface Probe {
  httpGet?: { path?: string; port: string | number; scheme?: string };
  [key: string]: unknown;
}

interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  volumes?: ({ name: string } & Json)[];
  securityContext?: Json;
  topologySpreadConstraints?: { labelSelector?: { matchLabels?: Record<string, string> } }[];
}

const show = (path: string) => relative(REPO_ROOT, path);
const kustomizationDirs = kustomizationDirsOf(listYamlFiles(K8S_DIR)).map(show);

const PART_OF = 'app.kubernetes.io/part-of';
const NAME = 'app.kubernetes.io/name';

const ofKind = (objects: KubernetesObject[], kind: string) => objects.filter((object) => object.kind === kind);
const podSpecOf = (workload: KubernetesObject) => podSpecOfWorkload(workload) as unknown as PodSpec;
/** Everything that runs pods: the apps' Deployments and, in dev, the dependencies. */
const WORKLOAD_KINDS = new Set(['Deployment', 'StatefulSet', 'Job', 'DaemonSet']);
/** Volumes a StatefulSet's pods get from their claim templates. */
const claimTemplateNames = (workload: KubernetesObject) =>
  ((workload.spec as { volumeClaimTemplates?: { metadata: { name: string } }[] }).volumeClaimTemplates ?? []).map((claim) => claim.metadata.name);
const containersOf = (workload: KubernetesObject): Container[] => {
  const podSpec = podSpecOf(workload);
  return [...(podSpec.initContainers ?? []), ...podSpec.containers];
};
const podLabelsOf = (workload: KubernetesObject): Record<string, string> => {
  const spec = workload.spec as { template?: { metadata?: { labels?: Record<string, string> } } };
  return spec.template?.metadata?.labels ?? {};
};
const selects = (selector: Record<string, string> | undefined, labels: Record<string, string>) =>
  selector !== undefined && Object.keys(selector).length > 0 && Object.entries(selector).every(([key, value]) => labels[key] === value);

/** The container port a probe or Service targets: by name, or by number. */
const resolvePort = (containers: Container[], port: string | number) =>
  containers.flatMap((container) => container.ports ?? []).find((declared) => (typeof port === 'number' ? declared.containerPort === port : declared.name === port));

/**
 * The Secrets the pods will find: those the kustomization renders (dev's development-only
 * credentials), else those created out of band, whose example files declare the names and keys.
 */
function availableSecrets(objects: KubernetesObject[]): Map<string, Record<string, string>> {
  const rendered = ofKind(objects, 'Secret');
  if (rendered.length > 0) {
    return new Map(
      rendered.map((secret) => [
        secret.metadata.name,
        Object.fromEntries(Object.entries((secret.data ?? {}) as Record<string, string>).map(([key, value]) => [key, Buffer.from(value, 'base64').toString('utf8')])),
      ]),
    );
  }
  const secrets = new Map<string, Record<string, string>>();
  for (const file of listYamlFiles(K8S_DIR).filter((path) => /\.example\.ya?ml$/.test(path))) {
    for (const document of readYamlDocuments(file)) {
      if (!isKubernetesObject(document) || document.kind !== 'Secret') continue;
      const data = { ...(document.data as Record<string, string> | undefined), ...(document.stringData as Record<string, string> | undefined) };
      secrets.set(document.metadata.name, data);
    }
  }
  return secrets;
}

/** The numeric UID the image runs as (the final stage's last USER). */
function imageUid(): number | undefined {
  const stages = readDockerfile(DOCKERFILE).stages;
  const users = stages[stages.length - 1].instructions.filter((instruction) => instruction.keyword === 'USER');
  const uid = users[users.length - 1]?.args.split(':')[0];
  return uid !== undefined && /^\d+$/.test(uid) ? Number(uid) : undefined;
}

describe.each(kustomizationDirs)('rendered %s', (dir) => {
  const render = () => renderKustomization(`${REPO_ROOT}/${dir}`);
  let objects: KubernetesObject[] = [];
  beforeAll(() => {
    try {
      objects = render();
    } catch {
      objects = []; // reported by the first test
    }
  });
  const deployments = () => ofKind(objects, 'Deployment');
  const workloads = () => objects.filter((object) => WORKLOAD_KINDS.has(object.kind));
  /** The one image every app runs (the first Deployment's). */
  const appImage = () => (deployments()[0] ? podSpecOf(deployments()[0]).containers[0].image : undefined);
  const deployment = (name: string) => deployments().find((object) => object.metadata.name === name);
  const configMaps = () => new Map(ofKind(objects, 'ConfigMap').map((object) => [object.metadata.name, (object.data ?? {}) as Record<string, string>]));

  it('renders', () => {
    expect(render).not.toThrow();
    expect(objects.length).toBeGreaterThan(0);
  });

  it('has a Deployment and a Service per app (and one per dependency StatefulSet), and an autoscaler and a disruption budget per autoscaled app', () => {
    const names = (kind: string) => ofKind(objects, kind).map((object) => object.metadata.name).sort();
    expect(names('Deployment')).toEqual([...DISTRIBUTED_APPS].sort());
    expect(names('Service')).toEqual([...DISTRIBUTED_APPS, ...names('StatefulSet')].sort());
    expect(names('HorizontalPodAutoscaler')).toEqual([...AUTOSCALED_APPS].sort());
    expect(names('PodDisruptionBudget')).toEqual([...AUTOSCALED_APPS].sort());
  });

  it('labels every object app.kubernetes.io/name and app.kubernetes.io/part-of: ringfence', () => {
    const unlabelled = objects.filter((object) => !object.metadata.labels?.[NAME] || object.metadata.labels[PART_OF] !== 'ringfence');
    expect(unlabelled.map(describeObject)).toEqual([]);
  });

  it('each Deployment selects its own pod template, labelled with the app name', () => {
    for (const workload of deployments()) {
      const selector = (workload.spec as { selector?: { matchLabels?: Record<string, string> } }).selector?.matchLabels;
      expect({ deployment: workload.metadata.name, selected: selects(selector, podLabelsOf(workload)) }).toEqual({ deployment: workload.metadata.name, selected: true });
      expect(podLabelsOf(workload)[NAME]).toBe(workload.metadata.name);
    }
  });

  it('each Deployment runs its own app from the one shared image', () => {
    const images = new Set<string | undefined>();
    for (const workload of deployments()) {
      const [container] = podSpecOf(workload).containers;
      images.add(container.image);
      expect({ deployment: workload.metadata.name, command: container.command, args: container.args }).toEqual({
        deployment: workload.metadata.name,
        command: undefined, // the image's ENTRYPOINT is node
        args: [appEntrypoint(workload.metadata.name)],
      });
      expect({ deployment: workload.metadata.name, appExists: existsSync(appSource(workload.metadata.name)) }).toEqual({ deployment: workload.metadata.name, appExists: true });
    }
    expect(images.size).toBe(1);
  });

  it('pins every image to a tag or digest other than latest in overlays', () => {
    if (!dir.includes('overlays/')) return;
    for (const container of workloads().flatMap(containersOf)) {
      expect(container.image).toMatch(/(:[\w][\w.-]{0,127}|@sha256:[a-f0-9]{64})$/);
      expect(container.image).not.toMatch(/:latest$/);
    }
  });

  it('every container has liveness and readiness probes on the health paths, at a declared port, with the scheme that port speaks', () => {
    for (const workload of deployments()) {
      for (const container of podSpecOf(workload).containers) {
        const where = `${describeObject(workload)} container ${container.name}`;
        const probes = { livenessProbe: '/health/live', readinessProbe: '/health/ready', startupProbe: '/health/live' } as const;
        for (const [field, path] of Object.entries(probes) as [keyof typeof probes, string][]) {
          const probe = container[field];
          if (field === 'startupProbe' && probe === undefined) continue;
          if (!probe?.httpGet) throw new Error(`${where}: no ${field} (httpGet)`);
          const port = resolvePort([container], probe.httpGet.port);
          if (!port) throw new Error(`${where}: ${field} targets port ${probe.httpGet.port}, which the container does not declare`);
          expect({ where, field, path: probe.httpGet.path, scheme: probe.httpGet.scheme ?? 'HTTP' }).toEqual({
            where,
            field,
            path,
            // The gateway's port speaks TLS: an HTTP probe there fails every time, and vice versa.
            scheme: port.name === 'https' || port.containerPort === 8443 ? 'HTTPS' : 'HTTP',
          });
        }
      }
    }
  });

  it('every app listens (PORT) on the port it declares', () => {
    for (const workload of deployments()) {
      const [container] = podSpecOf(workload).containers;
      const port = container.env?.find((variable) => variable.name === 'PORT')?.value;
      expect({ deployment: workload.metadata.name, PORT: port }).toEqual({
        deployment: workload.metadata.name,
        PORT: String(container.ports?.[0]?.containerPort),
      });
    }
  });

  it('every Service selects the pods of exactly one workload and targets a port they declare', () => {
    for (const service of ofKind(objects, 'Service')) {
      const spec = service.spec as { selector?: Record<string, string>; ports?: { port: number; targetPort?: string | number }[] };
      const selected = workloads().filter((workload) => selects(spec.selector, podLabelsOf(workload)));
      if (selected.length !== 1) throw new Error(`${describeObject(service)} selects ${selected.length} workloads`);
      for (const port of spec.ports ?? []) {
        const target = port.targetPort ?? port.port;
        if (!resolvePort(containersOf(selected[0]), target)) {
          throw new Error(`${describeObject(service)} port ${port.port} targets ${target}, which ${describeObject(selected[0])} does not declare`);
        }
      }
    }
  });

  it('every secret and config reference names a Secret (rendered, or see *.example.yaml) or ConfigMap key that is declared', () => {
    const secrets = availableSecrets(objects);
    const problems: string[] = [];
    for (const workload of workloads()) {
      const podSpec = podSpecOf(workload);
      for (const container of containersOf(workload)) {
        const where = `${describeObject(workload)} container ${container.name}`;
        for (const source of container.envFrom ?? []) {
          if (source.configMapRef && !source.configMapRef.optional && !configMaps().has(source.configMapRef.name)) problems.push(`${where}: envFrom ConfigMap ${source.configMapRef.name} is not declared`);
          if (source.secretRef && !source.secretRef.optional && !secrets.has(source.secretRef.name)) problems.push(`${where}: envFrom Secret ${source.secretRef.name} is not declared`);
        }
        for (const variable of container.env ?? []) {
          const secretRef = variable.valueFrom?.secretKeyRef as { name: string; key: string } | undefined;
          const configMapRef = variable.valueFrom?.configMapKeyRef as { name: string; key: string } | undefined;
          if (secretRef && secrets.get(secretRef.name)?.[secretRef.key] === undefined) problems.push(`${where}: ${variable.name} reads Secret ${secretRef.name} key ${secretRef.key}, which is not declared`);
          if (configMapRef && configMaps().get(configMapRef.name)?.[configMapRef.key] === undefined) problems.push(`${where}: ${variable.name} reads ConfigMap ${configMapRef.name} key ${configMapRef.key}, which is not declared`);
        }
      }
      for (const volume of podSpec.volumes ?? []) {
        const secretName = (volume.secret as { secretName?: string } | undefined)?.secretName;
        const configMapName = (volume.configMap as { name?: string } | undefined)?.name;
        if (secretName && !secrets.has(secretName)) problems.push(`${describeObject(workload)} volume ${volume.name}: Secret ${secretName} is not declared`);
        if (configMapName && !configMaps().has(configMapName)) problems.push(`${describeObject(workload)} volume ${volume.name}: ConfigMap ${configMapName} is not declared`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("every app's environment (literals, ConfigMap, example Secret) runs the distributed mode and passes the app's own config validation", () => {
    const secrets = availableSecrets(objects);
    for (const workload of deployments()) {
      const [container] = podSpecOf(workload).containers;
      const env: Record<string, string> = {};
      for (const source of container.envFrom ?? []) {
        Object.assign(env, source.configMapRef ? configMaps().get(source.configMapRef.name) : {}, source.secretRef ? secrets.get(source.secretRef.name) : {});
      }
      for (const variable of container.env ?? []) {
        const secretRef = variable.valueFrom?.secretKeyRef as { name: string; key: string } | undefined;
        const configMapRef = variable.valueFrom?.configMapKeyRef as { name: string; key: string } | undefined;
        const value = variable.value ?? (secretRef ? secrets.get(secretRef.name)?.[secretRef.key] : configMapRef ? configMaps().get(configMapRef.name)?.[configMapRef.key] : undefined);
        if (value !== undefined) env[variable.name] = value;
      }
      const where = describeObject(workload);
      // Without these the app would quietly fall back to the embedded database and in-process
      // bus: one private data set per pod.
      expect({ where, DATABASE_URL: Boolean(env.DATABASE_URL), KAFKA_BROKERS: Boolean(env.KAFKA_BROKERS) }).toEqual({ where, DATABASE_URL: true, KAFKA_BROKERS: true });
      if (workload.metadata.name === 'graph') expect({ where, NEO4J_URL: Boolean(env.NEO4J_URL), NEO4J_PASSWORD: Boolean(env.NEO4J_PASSWORD) }).toEqual({ where, NEO4J_URL: true, NEO4J_PASSWORD: true });
      if (workload.metadata.name === 'gateway') expect({ where, ADMIN_API_KEY: Boolean(env.ADMIN_API_KEY) }).toEqual({ where, ADMIN_API_KEY: true });
      // ADR-0016: the gateway calls the lookup service with its own credential, and only the gateway holds the admin token.
      if (workload.metadata.name === 'gateway' || workload.metadata.name === 'lookup') {
        expect({ where, INTERNAL_API_KEY: Boolean(env.INTERNAL_API_KEY) }).toEqual({ where, INTERNAL_API_KEY: true });
      }
      if (workload.metadata.name !== 'gateway') expect({ where, ADMIN_API_KEY: env.ADMIN_API_KEY }).toEqual({ where, ADMIN_API_KEY: undefined });
      expect(() => loadConfig(env, { port: 8080 })).not.toThrow();
    }
  });

  it('every pod runs non-root, without privileges (Pod Security "restricted"); the apps as the image user, read-only', () => {
    const uid = imageUid();
    for (const workload of workloads()) {
      const podSpec = podSpecOf(workload);
      const where = describeObject(workload);
      const isApp = workload.kind === 'Deployment';
      expect({ where, pod: podSpec.securityContext }).toMatchObject({
        where,
        // runAsNonRoot alone fails to start an image whose USER is not numeric; pin the UID.
        pod: { runAsNonRoot: true, runAsUser: isApp ? uid : expect.any(Number), seccompProfile: { type: 'RuntimeDefault' } },
      });
      expect({ where, runAsUser: podSpec.securityContext?.runAsUser }).not.toEqual({ where, runAsUser: 0 });
      for (const container of containersOf(workload)) {
        const context = container.securityContext ?? {};
        expect({ where, container: container.name, context }).toMatchObject({
          where,
          container: container.name,
          context: { allowPrivilegeEscalation: false, capabilities: { drop: expect.arrayContaining(['ALL']) } },
        });
        expect(context.privileged).not.toBe(true);
        expect((context.capabilities as { add?: unknown[] } | undefined)?.add ?? []).toEqual([]);
        // The ringfence image writes only to its volumes; third-party images keep their own layout.
        if (container.image === appImage()) expect({ where, container: container.name, readOnlyRootFilesystem: context.readOnlyRootFilesystem }).toEqual({ where, container: container.name, readOnlyRootFilesystem: true });
      }
    }
  });

  it('every container mounts only declared volumes, and each container of the ringfence image gets a writable /tmp from an emptyDir', () => {
    for (const workload of workloads()) {
      const volumes = new Map((podSpecOf(workload).volumes ?? []).map((volume) => [volume.name, volume]));
      const claims = new Set(claimTemplateNames(workload));
      for (const container of containersOf(workload)) {
        const where = `${describeObject(workload)} container ${container.name}`;
        for (const mount of container.volumeMounts ?? []) {
          if (!volumes.has(mount.name) && !claims.has(mount.name)) throw new Error(`${where}: mounts volume ${mount.name}, which the pod does not declare`);
        }
        if (container.image !== appImage()) continue;
        const tmp = container.volumeMounts?.find((mount) => mount.mountPath === '/tmp');
        expect({ where, tmpFromEmptyDir: tmp !== undefined && isRecord(volumes.get(tmp.name)?.emptyDir) }).toEqual({ where, tmpFromEmptyDir: true });
      }
    }
  });

  it('every container requests and limits cpu and memory, with requests no larger than limits', () => {
    for (const workload of workloads()) {
      for (const container of containersOf(workload)) {
        const where = `${describeObject(workload)} container ${container.name}`;
        for (const resource of ['cpu', 'memory']) {
          const request = container.resources?.requests?.[resource];
          const limit = container.resources?.limits?.[resource];
          if (request === undefined || limit === undefined) throw new Error(`${where}: ${resource} request and limit are required`);
          if (parseQuantity(request) > parseQuantity(limit)) throw new Error(`${where}: ${resource} request ${request} exceeds limit ${limit}`);
        }
      }
    }
  });

  it('every topology spread constraint selects the pods it spreads', () => {
    for (const workload of deployments()) {
      for (const constraint of podSpecOf(workload).topologySpreadConstraints ?? []) {
        expect({ where: describeObject(workload), selectsOwnPods: selects(constraint.labelSelector?.matchLabels, podLabelsOf(workload)) }).toEqual({
          where: describeObject(workload),
          selectsOwnPods: true,
        });
      }
    }
  });

  it('every HorizontalPodAutoscaler targets an existing Deployment that leaves replicas to it, with the requests its metrics need', () => {
    for (const autoscaler of ofKind(objects, 'HorizontalPodAutoscaler')) {
      const spec = autoscaler.spec as {
        scaleTargetRef: { apiVersion: string; kind: string; name: string };
        minReplicas?: number;
        maxReplicas: number;
        metrics?: { type: string; resource?: { name: string } }[];
      };
      const where = describeObject(autoscaler);
      const target = spec.scaleTargetRef.kind === 'Deployment' && spec.scaleTargetRef.apiVersion === 'apps/v1' ? deployment(spec.scaleTargetRef.name) : undefined;
      if (!target) throw new Error(`${where}: scale target ${spec.scaleTargetRef.kind}/${spec.scaleTargetRef.name} does not exist`);
      // A replicas field in the Deployment resets the autoscaler's choice on every apply.
      expect({ where, replicas: (target.spec as { replicas?: number }).replicas }).toEqual({ where, replicas: undefined });
      expect(spec.minReplicas ?? 1).toBeGreaterThanOrEqual(1);
      expect(spec.maxReplicas).toBeGreaterThanOrEqual(spec.minReplicas ?? 1);
      for (const metric of spec.metrics ?? []) {
        if (metric.type !== 'Resource' || !metric.resource) continue;
        for (const container of podSpecOf(target).containers) {
          if (container.resources?.requests?.[metric.resource.name] === undefined) {
            throw new Error(`${where}: scales on ${metric.resource.name} utilisation, but ${container.name} requests no ${metric.resource.name}`);
          }
        }
      }
    }
  });

  it('every PodDisruptionBudget selects the pods of exactly one Deployment', () => {
    for (const budget of ofKind(objects, 'PodDisruptionBudget')) {
      const selector = (budget.spec as { selector?: { matchLabels?: Record<string, string> } }).selector?.matchLabels;
      const selected = deployments().filter((workload) => selects(selector, podLabelsOf(workload)));
      expect({ where: describeObject(budget), selected: selected.map((workload) => workload.metadata.name) }).toEqual({
        where: describeObject(budget),
        selected: [budget.metadata.name],
      });
    }
  });

  it("puts every namespaced object in the kustomization's namespace (overlays) or leaves it unset (base)", () => {
    const namespace = readKustomization(`${REPO_ROOT}/${dir}`).namespace;
    const namespaced = objects.filter(isNamespaced);
    expect(namespaced.filter((object) => object.metadata.namespace !== namespace).map(describeObject)).toEqual([]);
  });
});
