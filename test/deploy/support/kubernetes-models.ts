import * as kubernetesModels from 'kubernetes-models';
import { isRecord } from './yaml-files';

/** The part of a Kubernetes object these tests read; the rest stays `unknown`. */
export interface KubernetesObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; [key: string]: unknown };
  [key: string]: unknown;
}

export function isKubernetesObject(value: unknown): value is KubernetesObject {
  return (
    isRecord(value) &&
    typeof value.apiVersion === 'string' &&
    typeof value.kind === 'string' &&
    isRecord(value.metadata) &&
    typeof value.metadata.name === 'string'
  );
}

export const describeObject = (object: { kind?: unknown; metadata?: { name?: unknown } }) =>
  `${String(object.kind)}/${String(object.metadata?.name)}`;

interface ModelClass {
  new (data: object): { validate(): void };
  apiVersion: string;
  kind: string;
}

/** `networking.k8s.io` → `networkingK8sIo`, the namespace the kubernetes-models index exports. */
const groupNamespace = (group: string) =>
  group
    .split('.')
    .map((part, index) => (index === 0 ? part : part.charAt(0).toUpperCase() + part.slice(1)))
    .join('');

/**
 * The kubernetes-models class of a built-in kind (`apps/v1` + `Deployment`), or undefined when
 * the package has none: a typo in apiVersion or kind, or a kind that is not Kubernetes' own.
 */
export function modelClassFor(apiVersion: string, kind: string): ModelClass | undefined {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/', 2) : ['', apiVersion];
  const byGroup = kubernetesModels as unknown as Record<string, Record<string, Record<string, unknown>> | undefined>;
  const versions = group === '' ? { [version]: byGroup[version] as unknown as Record<string, unknown> } : byGroup[groupNamespace(group)];
  const candidate = versions?.[version]?.[kind] as ModelClass | undefined;
  return typeof candidate === 'function' && candidate.apiVersion === apiVersion && candidate.kind === kind
    ? candidate
    : undefined;
}

/** Validates against the Kubernetes OpenAPI schema; throws naming the object and every violation. */
export function validateKubernetesObject(object: KubernetesObject): void {
  const Model = modelClassFor(object.apiVersion, object.kind);
  if (!Model) throw new Error(`${describeObject(object)}: unknown apiVersion/kind ${object.apiVersion} ${object.kind}`);
  try {
    new Model(object).validate();
  } catch (error) {
    const details = isRecord(error) && Array.isArray(error.errors) ? error.errors : [];
    const lines = details.map((detail: { instancePath?: string; message?: string }) => `  ${detail.instancePath || '/'} ${detail.message}`);
    throw new Error(`${describeObject(object)} is invalid:\n${lines.join('\n') || String(error)}`);
  }
}
