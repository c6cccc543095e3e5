import { resolve } from 'node:path';
import type { KubernetesObject } from './support/kubernetes-models';
import { renderKustomization } from './support/kubectl-kustomize';
import { DISTRIBUTED_APPS, REPO_ROOT } from './support/repo-paths';

/*
 * ADR-0016, "Inside the cluster": the NetworkPolicies of k8s/, rendered by the real
 * `kubectl kustomize`, evaluated against the pods the same rendering runs. Each question is the
 * one a network plugin answers: may this source open a connection to this pod on this port?
 * Only the gateway is reachable from outside; the lookup service's port from the gateway (and
 * Prometheus); the other workers' from Prometheus only; in dev, each dependency from its users.
 */

interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }[];
}
interface Peer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: { cidr: string };
}
interface IngressRule {
  from?: Peer[];
  ports?: { port?: string | number; protocol?: string }[];
}
interface PolicySpec {
  podSelector: LabelSelector;
  policyTypes?: string[];
  ingress?: IngressRule[];
}

/** A pod the rendering runs: its workload's template labels and its containers' ports. */
interface Pod {
  name: string;
  labels: Record<string, string>;
  ports: { name?: string; containerPort: number }[];
}

/** Who opens a connection: a pod of the namespace, a pod elsewhere in the cluster, or a client outside it. */
type Source = { kind: 'pod'; pod: Pod } | { kind: 'cluster'; namespaceLabels: Record<string, string>; podLabels: Record<string, string> } | { kind: 'outside' };

const OUTSIDE: Source = { kind: 'outside' };
const PROMETHEUS: Source = { kind: 'cluster', namespaceLabels: { 'kubernetes.io/metadata.name': 'monitoring' }, podLabels: { 'app.kubernetes.io/name': 'prometheus' } };
const OTHER_NAMESPACE: Source = { kind: 'cluster', namespaceLabels: { 'kubernetes.io/metadata.name': 'tenant-apps' }, podLabels: { 'app.kubernetes.io/name': 'gateway', 'app.kubernetes.io/part-of': 'ringfence' } };

/** Kubernetes' label-selector semantics; an empty selector selects everything. */
function selects(selector: LabelSelector, labels: Record<string, string>): boolean {
  const byLabels = Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
  const byExpressions = (selector.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
    switch (operator) {
      case 'In':
        return key in labels && values.includes(labels[key]);
      case 'NotIn':
        return !(key in labels) || !values.includes(labels[key]);
      case 'Exists':
        return key in labels;
      case 'DoesNotExist':
        return !(key in labels);
    }
  });
  return byLabels && byExpressions;
}

function peerAdmits(peer: Peer, source: Source): boolean {
  if (peer.ipBlock) return source.kind !== 'pod';
  if (peer.namespaceSelector) {
    // Without a namespaceSelector a podSelector means this namespace only.
    if (source.kind !== 'cluster' || !selects(peer.namespaceSelector, source.namespaceLabels)) return false;
    return peer.podSelector === undefined || selects(peer.podSelector, source.podLabels);
  }
  return source.kind === 'pod' && peer.podSelector !== undefined && selects(peer.podSelector, source.pod.labels);
}

function portOf(pod: Pod, portName: string) {
  const port = pod.ports.find((candidate) => candidate.name === portName);
  if (!port) throw new Error(`${pod.name} has no port named ${portName}`);
  return port;
}

class Rendering {
  readonly policies: Array<{ name: string; spec: PolicySpec }>;
  readonly pods: Pod[];

  constructor(readonly dir: string) {
    const objects = renderKustomization(resolve(REPO_ROOT, dir));
    this.policies = objects.filter((object) => object.kind === 'NetworkPolicy').map((object) => ({ name: object.metadata.name, spec: object.spec as unknown as PolicySpec }));
    this.pods = objects.filter((object) => ['Deployment', 'StatefulSet', 'Job', 'DaemonSet'].includes(object.kind)).map(podOf);
  }

  pod(name: string): Pod {
    const pod = this.pods.find((candidate) => candidate.name === name);
    if (!pod) throw new Error(`${this.dir} runs no ${name}`);
    return pod;
  }

  /** The policies that isolate this pod for ingress. */
  isolating(pod: Pod) {
    return this.policies.filter(({ spec }) => (spec.policyTypes ?? ['Ingress']).includes('Ingress') && selects(spec.podSelector, pod.labels));
  }

  /** Whether `source` may connect to `pod` on its port named `portName`. */
  admits(pod: Pod, source: Source, portName: string): boolean {
    const policies = this.isolating(pod);
    if (policies.length === 0) return true;
    const port = portOf(pod, portName);
    return policies.some(({ spec }) =>
      (spec.ingress ?? []).some(
        (rule) =>
          (rule.ports === undefined || rule.ports.some((allowed) => allowed.port === undefined || allowed.port === port.name || allowed.port === port.containerPort)) &&
          (rule.from === undefined || rule.from.length === 0 || rule.from.some((peer) => peerAdmits(peer, source))),
      ),
    );
  }

  /** Every pod and port name of the rendering, as [pod, port] pairs. */
  podPorts(): Array<[Pod, string]> {
    return this.pods.flatMap((pod) => pod.ports.map((port) => [pod, port.name ?? String(port.containerPort)] as [Pod, string]));
  }
}

function podOf(workload: KubernetesObject): Pod {
  const template = (workload.spec as { template: { metadata?: { labels?: Record<string, string> }; spec: { containers: { ports?: Pod['ports'] }[] } } }).template;
  return { name: workload.metadata.name, labels: template.metadata?.labels ?? {}, ports: template.spec.containers.flatMap((container) => container.ports ?? []) };
}

const WORKERS = DISTRIBUTED_APPS.filter((app) => app !== 'gateway');
const DEPENDENCY_USERS = { kafka: [...DISTRIBUTED_APPS, 'kafka-init-topics'], postgres: [...DISTRIBUTED_APPS], neo4j: ['graph'] } as const;
const DEPENDENCY_PORTS = { kafka: 'kafka', postgres: 'postgres', neo4j: 'bolt' } as const;

describe.each(['k8s/base', 'k8s/overlays/dev', 'k8s/overlays/prod'])('network policies of %s', (dir) => {
  const rendering = new Rendering(dir);
  const describePod = (pod: Pod) => `${dir}: ${pod.name}`;

  it('renders the pods of every app and at least one policy', () => {
    expect(rendering.pods.map((pod) => pod.name)).toEqual(expect.arrayContaining([...DISTRIBUTED_APPS]));
    expect(rendering.policies.length).toBeGreaterThan(0);
  });

  it('denies ingress by default: one policy selects every pod of the namespace and admits nothing', () => {
    const defaultDeny = rendering.policies.filter(({ spec }) => Object.keys(spec.podSelector).length === 0 && (spec.ingress ?? []).length === 0);

    expect(defaultDeny.map(({ spec }) => spec.policyTypes)).toEqual([['Ingress']]);
    for (const pod of rendering.pods) expect({ pod: describePod(pod), isolated: rendering.isolating(pod).length > 0 }).toEqual({ pod: describePod(pod), isolated: true });
  });

  it('lets clients outside the cluster reach the gateway on HTTPS, and no other pod on any port', () => {
    expect(rendering.admits(rendering.pod('gateway'), OUTSIDE, 'https')).toBe(true);
    const reachable = rendering.podPorts().filter(([pod, port]) => rendering.admits(pod, OUTSIDE, port));
    expect(reachable.map(([pod, port]) => `${pod.name}:${port}`)).toEqual(['gateway:https']);
  });

  it('lets other namespaces reach the gateway only, even pods that carry the gateway\'s labels', () => {
    const reachable = rendering.podPorts().filter(([pod, port]) => rendering.admits(pod, OTHER_NAMESPACE, port));
    expect(reachable.map(([pod, port]) => `${pod.name}:${port}`)).toEqual(['gateway:https']);
  });

  it('lets only the gateway, of the apps, reach the lookup service (its internal routes)', () => {
    const lookup = rendering.pod('lookup');
    const admitted = rendering.pods.filter((pod) => rendering.admits(lookup, { kind: 'pod', pod }, 'http'));

    expect(admitted.map((pod) => pod.name)).toEqual(['gateway']);
  });

  it.each(WORKERS.filter((worker) => worker !== 'lookup'))('lets no pod of the namespace reach %s: its requests and events come over Kafka', (worker) => {
    const target = rendering.pod(worker);
    const admitted = rendering.pods.filter((pod) => target.ports.some((port) => rendering.admits(target, { kind: 'pod', pod }, port.name ?? String(port.containerPort))));

    expect(admitted.map((pod) => pod.name)).toEqual([]);
  });

  it.each(WORKERS)('lets Prometheus (namespace monitoring, k8s/README.md) scrape %s on its ops port', (worker) => {
    expect(rendering.admits(rendering.pod(worker), PROMETHEUS, 'http')).toBe(true);
  });

  it('has no policy or peer whose pod selector matches no pod of the rendering (a label typo admits nothing)', () => {
    const deadSelectors = rendering.policies.flatMap(({ name, spec }) => [
      ...(rendering.pods.some((pod) => selects(spec.podSelector, pod.labels)) ? [] : [`${name}: podSelector`]),
      ...(spec.ingress ?? []).flatMap((rule) =>
        (rule.from ?? [])
          .filter((peer) => peer.namespaceSelector === undefined && peer.podSelector !== undefined)
          .filter((peer) => !rendering.pods.some((pod) => selects(peer.podSelector!, pod.labels)))
          .map(() => `${name}: from.podSelector`),
      ),
    ]);

    expect(deadSelectors).toEqual([]);
  });

  it('names only ports that every pod a policy selects declares', () => {
    const missing = rendering.policies.flatMap(({ name, spec }) =>
      rendering.pods
        .filter((pod) => selects(spec.podSelector, pod.labels))
        .flatMap((pod) =>
          (spec.ingress ?? [])
            .flatMap((rule) => rule.ports ?? [])
            .filter(({ port }) => port !== undefined && !pod.ports.some((declared) => declared.name === port || declared.containerPort === port))
            .map(({ port }) => `${name} → ${pod.name}:${String(port)}`),
        ),
    );

    expect(missing).toEqual([]);
  });
});

describe('network policies of k8s/overlays/dev: the dependencies', () => {
  const rendering = new Rendering('k8s/overlays/dev');

  it.each(Object.entries(DEPENDENCY_USERS))('lets exactly the pods that use %s reach it', (dependency, users) => {
    const target = rendering.pod(dependency);
    const admitted = rendering.pods.filter((pod) => rendering.admits(target, { kind: 'pod', pod }, DEPENDENCY_PORTS[dependency as keyof typeof DEPENDENCY_PORTS]));

    expect(admitted.map((pod) => pod.name).sort()).toEqual([...users].sort());
  });

  it('lets no pod reach Neo4j\'s browser port (kubectl port-forward only)', () => {
    const neo4j = rendering.pod('neo4j');
    expect(rendering.pods.filter((pod) => rendering.admits(neo4j, { kind: 'pod', pod }, 'http')).map((pod) => pod.name)).toEqual([]);
  });
});
