import { existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describeObject, isKubernetesObject, type KubernetesObject } from './kubernetes-models';
import { isRecord, parseYamlDocuments, readYamlDocuments } from './yaml-files';

/*
 * A small kustomize renderer for the deploy tests: no kustomize binary runs here, and the npm
 * registry has no maintained pure-JS one. It implements the subset of kustomize that k8s/ uses,
 * with kustomize's semantics, and refuses everything else (an unsupported field is an error, not
 * a silent no-op), so a kustomization that grows past it fails the tests until this grows too.
 *
 * Stricter than kustomize on purpose: a patch, image or replicas entry that matches nothing is an
 * error here (kustomize ignores some of these silently), because it is always a mistake.
 *
 * Supported: resources (files and kustomization folders), namespace, images, replicas, and
 * patches (strategic merge or JSON 6902, from `path` or inline `patch`, with or without `target`).
 */

export const KUSTOMIZATION_FILE_NAMES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];
const SUPPORTED_FIELDS = new Set(['apiVersion', 'kind', 'resources', 'namespace', 'images', 'replicas', 'patches']);

export class KustomizeError extends Error {
  override name = 'KustomizeError';
}

export interface PatchTarget {
  group?: string;
  version?: string;
  kind?: string;
  name?: string;
  namespace?: string;
  labelSelector?: string;
}

export interface PatchEntry {
  path?: string;
  patch?: string;
  target?: PatchTarget;
}

export interface ImageEntry {
  name: string;
  newName?: string;
  newTag?: string;
  digest?: string;
}

export interface ReplicasEntry {
  name: string;
  count: number;
}

export interface Kustomization {
  /** The kustomization file. */
  file: string;
  dir: string;
  resources: string[];
  namespace?: string;
  images: ImageEntry[];
  replicas: ReplicasEntry[];
  patches: PatchEntry[];
}

export function findKustomizationFile(dir: string): string | undefined {
  return KUSTOMIZATION_FILE_NAMES.map((name) => join(dir, name)).find((file) => existsSync(file));
}

export const isKustomizationFile = (file: string) => KUSTOMIZATION_FILE_NAMES.some((name) => file.endsWith(`/${name}`));

const fail = (file: string, message: string): never => {
  throw new KustomizeError(`${relative(process.cwd(), file)}: ${message}`);
};

/** Reads and shape-checks a kustomization (without loading what it refers to). */
export function loadKustomization(dir: string): Kustomization {
  const file = findKustomizationFile(dir);
  if (!file) throw new KustomizeError(`${dir}: no kustomization file (${KUSTOMIZATION_FILE_NAMES.join(', ')})`);
  const documents = readYamlDocuments(file);
  if (documents.length !== 1 || !isRecord(documents[0])) return fail(file, 'must hold exactly one YAML mapping');
  const content = documents[0];
  if (content.apiVersion !== 'kustomize.config.k8s.io/v1beta1' || content.kind !== 'Kustomization') {
    fail(file, 'must be apiVersion kustomize.config.k8s.io/v1beta1, kind Kustomization');
  }
  for (const field of Object.keys(content)) {
    if (!SUPPORTED_FIELDS.has(field)) {
      fail(file, `field "${field}" is not supported by the test renderer (test/deploy/support/kustomize.ts)`);
    }
  }
  const list = (field: string): unknown[] => {
    const value = content[field] ?? [];
    return Array.isArray(value) ? value : fail(file, `${field} must be a list`);
  };
  const resources = list('resources').map((entry) =>
    typeof entry === 'string' ? entry : fail(file, `resources entries must be strings, got ${JSON.stringify(entry)}`),
  );
  const images = list('images').map((entry) => {
    if (!isRecord(entry) || typeof entry.name !== 'string') return fail(file, 'each images entry needs a name');
    const allowed = new Set(['name', 'newName', 'newTag', 'digest']);
    const unknown = Object.keys(entry).filter((key) => !allowed.has(key));
    if (unknown.length > 0) fail(file, `images entry ${entry.name}: unknown field(s) ${unknown.join(', ')}`);
    for (const key of ['newName', 'newTag', 'digest']) {
      if (entry[key] !== undefined && typeof entry[key] !== 'string') fail(file, `images entry ${entry.name}: ${key} must be a string (quote it)`);
    }
    return entry as unknown as ImageEntry;
  });
  const replicas = list('replicas').map((entry) =>
    isRecord(entry) && typeof entry.name === 'string' && Number.isInteger(entry.count)
      ? (entry as unknown as ReplicasEntry)
      : fail(file, `each replicas entry needs a name and an integer count, got ${JSON.stringify(entry)}`),
  );
  const patches = list('patches').map((entry) => {
    if (!isRecord(entry)) return fail(file, 'each patches entry must be a mapping');
    const unknown = Object.keys(entry).filter((key) => !['path', 'patch', 'target'].includes(key));
    if (unknown.length > 0) fail(file, `patches entry: unsupported field(s) ${unknown.join(', ')}`);
    if ((entry.path === undefined) === (entry.patch === undefined)) fail(file, 'each patches entry needs exactly one of path and patch');
    if (entry.target !== undefined && !isRecord(entry.target)) fail(file, 'patches target must be a mapping');
    const targetFields = Object.keys(entry.target ?? {});
    const unsupportedTarget = targetFields.filter((key) => !['group', 'version', 'kind', 'name', 'namespace', 'labelSelector'].includes(key));
    if (unsupportedTarget.length > 0) fail(file, `patches target: unsupported field(s) ${unsupportedTarget.join(', ')}`);
    return entry as PatchEntry;
  });
  const namespace = content.namespace;
  if (namespace !== undefined && typeof namespace !== 'string') fail(file, 'namespace must be a string');
  return { file, dir, resources, namespace: namespace as string | undefined, images, replicas, patches };
}

const isRemote = (reference: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(reference) || /^(github\.com|gitlab\.com|git@)/.test(reference) || reference.includes('?ref=');

/** A `resources` entry resolved on disk: a YAML file or a folder with a kustomization. */
export function resolveResource(kustomization: Kustomization, reference: string): { kind: 'file' | 'kustomization'; path: string } {
  if (isRemote(reference)) return fail(kustomization.file, `remote resource ${reference} is not allowed: keep every manifest in the repository`);
  const path = resolve(kustomization.dir, reference);
  if (!existsSync(path)) return fail(kustomization.file, `resource ${reference} does not exist`);
  if (statSync(path).isDirectory()) {
    if (!findKustomizationFile(path)) fail(kustomization.file, `resource folder ${reference} has no kustomization file`);
    return { kind: 'kustomization', path };
  }
  return { kind: 'file', path };
}

/** The file a `patches` entry reads, resolved and checked to exist (undefined for inline patches). */
export function resolvePatchFile(kustomization: Kustomization, entry: PatchEntry): string | undefined {
  if (entry.path === undefined) return undefined;
  const path = resolve(kustomization.dir, entry.path);
  if (!existsSync(path) || !statSync(path).isFile()) fail(kustomization.file, `patch file ${entry.path} does not exist`);
  return path;
}

const clone = <T>(value: T): T => structuredClone(value);

function readResourceFile(file: string): KubernetesObject[] {
  return readYamlDocuments(file).map((document, index) =>
    isKubernetesObject(document) ? document : fail(file, `document ${index + 1} is not a Kubernetes object (apiVersion, kind, metadata.name)`),
  );
}

/** The resources of a kustomization before its own patches and transformers. */
export function loadResources(kustomization: Kustomization, seen: string[] = []): KubernetesObject[] {
  const objects: KubernetesObject[] = [];
  for (const reference of kustomization.resources) {
    const resolved = resolveResource(kustomization, reference);
    objects.push(...(resolved.kind === 'file' ? readResourceFile(resolved.path) : renderKustomization(resolved.path, [...seen, kustomization.dir])));
  }
  const ids = new Set<string>();
  for (const object of objects) {
    const id = objectId(object);
    if (ids.has(id)) fail(kustomization.file, `resource ${id} is declared more than once`);
    ids.add(id);
  }
  return objects;
}

const objectId = (object: KubernetesObject) =>
  `${object.apiVersion} ${object.kind} ${object.metadata.namespace ?? '~'}/${object.metadata.name}`;

const splitApiVersion = (apiVersion: string) =>
  apiVersion.includes('/') ? { group: apiVersion.split('/')[0], version: apiVersion.split('/')[1] } : { group: '', version: apiVersion };

/** kustomize selector semantics: every given field must match; `name` is an anchored regex. */
export function selectTargets(objects: KubernetesObject[], target: PatchTarget): KubernetesObject[] {
  return objects.filter((object) => {
    const { group, version } = splitApiVersion(object.apiVersion);
    if (target.group !== undefined && target.group !== group) return false;
    if (target.version !== undefined && target.version !== version) return false;
    if (target.kind !== undefined && target.kind !== object.kind) return false;
    if (target.name !== undefined && !new RegExp(`^(?:${target.name})$`).test(object.metadata.name)) return false;
    if (target.namespace !== undefined && target.namespace !== (object.metadata.namespace ?? '')) return false;
    if (target.labelSelector !== undefined) {
      const labels = object.metadata.labels ?? {};
      for (const requirement of target.labelSelector.split(',')) {
        const [key, value] = requirement.split('=').map((part) => part.trim());
        if (value === undefined) throw new KustomizeError(`labelSelector "${target.labelSelector}": only key=value terms are supported`);
        if (labels[key] !== value) return false;
      }
    }
    return true;
  });
}

type Patch = { type: 'strategic-merge'; content: KubernetesObject } | { type: 'json6902'; operations: JsonPatchOperation[] };

interface JsonPatchOperation {
  op: string;
  path: string;
  value?: unknown;
}

function readPatch(kustomization: Kustomization, entry: PatchEntry): Patch {
  const file = resolvePatchFile(kustomization, entry);
  const origin = file ?? `${kustomization.file} (inline patch)`;
  const documents = file ? readYamlDocuments(file) : parseYamlDocuments(entry.patch ?? '', origin);
  if (documents.length !== 1) return fail(kustomization.file, `${origin}: a patch holds exactly one document`);
  const [document] = documents;
  if (Array.isArray(document)) {
    if (!entry.target) fail(kustomization.file, `${origin}: a JSON 6902 patch needs a target`);
    const operations = document.map((operation) =>
      isRecord(operation) && typeof operation.op === 'string' && typeof operation.path === 'string'
        ? (operation as unknown as JsonPatchOperation)
        : fail(kustomization.file, `${origin}: each JSON 6902 operation needs op and path`),
    );
    return { type: 'json6902', operations };
  }
  if (!isKubernetesObject(document)) return fail(kustomization.file, `${origin}: a strategic merge patch needs apiVersion, kind and metadata.name`);
  return { type: 'strategic-merge', content: document };
}

/** The objects a patches entry applies to; throws when it matches none. */
export function patchTargets(kustomization: Kustomization, entry: PatchEntry, objects: KubernetesObject[]): KubernetesObject[] {
  return selectPatchTargets(kustomization, entry, readPatch(kustomization, entry), objects);
}

function selectPatchTargets(kustomization: Kustomization, entry: PatchEntry, patch: Patch, objects: KubernetesObject[]): KubernetesObject[] {
  const target: PatchTarget =
    entry.target ??
    (patch.type === 'strategic-merge'
      ? { ...splitApiVersion(patch.content.apiVersion), kind: patch.content.kind, name: patch.content.metadata.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') }
      : {});
  const selected = selectTargets(objects, target);
  if (selected.length === 0) {
    fail(kustomization.file, `patch ${entry.path ?? '(inline)'} matches no resource (target ${JSON.stringify(target)})`);
  }
  return selected;
}

/** Strategic merge: the list fields Kubernetes merges by key instead of replacing. */
const LIST_MERGE_KEYS: Record<string, string[]> = {
  containers: ['name'],
  initContainers: ['name'],
  ephemeralContainers: ['name'],
  env: ['name'],
  volumes: ['name'],
  volumeMounts: ['mountPath'],
  ports: ['containerPort', 'port'],
  imagePullSecrets: ['name'],
  topologySpreadConstraints: ['topologyKey'],
  hostAliases: ['ip'],
};

export function strategicMerge(base: unknown, patch: unknown, field?: string): unknown {
  if (isRecord(patch)) {
    const directives = Object.keys(patch).filter((key) => key.startsWith('$'));
    if (directives.length > 0) throw new KustomizeError(`strategic merge directive(s) ${directives.join(', ')} are not supported by the test renderer`);
    if (!isRecord(base)) return clone(patch);
    const merged: Record<string, unknown> = { ...base };
    for (const [key, value] of Object.entries(patch)) {
      if (value === null) delete merged[key];
      else merged[key] = strategicMerge(base[key], value, key);
    }
    return merged;
  }
  if (Array.isArray(patch) && Array.isArray(base) && field !== undefined && LIST_MERGE_KEYS[field]) {
    const mergeKey = LIST_MERGE_KEYS[field].find((key) => patch.every((item) => isRecord(item) && key in item));
    if (!mergeKey) throw new KustomizeError(`strategic merge: every item of "${field}" needs its merge key (${LIST_MERGE_KEYS[field].join(' or ')})`);
    const merged = [...base];
    for (const item of patch as Record<string, unknown>[]) {
      const index = merged.findIndex((existing) => isRecord(existing) && existing[mergeKey] === item[mergeKey]);
      if (index >= 0) merged[index] = strategicMerge(merged[index], item);
      else merged.push(clone(item));
    }
    return merged;
  }
  return clone(patch);
}

const decodePointer = (pointer: string): string[] => {
  if (!pointer.startsWith('/')) throw new KustomizeError(`JSON pointer "${pointer}" must start with /`);
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
};

/** RFC 6902 add, remove, replace and test; a path that does not exist is an error, as in kustomize. */
export function applyJsonPatch(document: unknown, operations: JsonPatchOperation[]): unknown {
  const root = clone(document);
  for (const operation of operations) {
    const tokens = decodePointer(operation.path);
    const last = tokens.pop() as string;
    let parent: unknown = root;
    for (const token of tokens) {
      parent = Array.isArray(parent) ? parent[Number(token)] : isRecord(parent) ? parent[token] : undefined;
      if (parent === undefined) throw new KustomizeError(`${operation.op} ${operation.path}: the path does not exist`);
    }
    const exists = Array.isArray(parent) ? /^\d+$/.test(last) && Number(last) < parent.length : isRecord(parent) && last in parent;
    switch (operation.op) {
      case 'add':
        if (Array.isArray(parent)) parent.splice(last === '-' ? parent.length : Number(last), 0, clone(operation.value));
        else if (isRecord(parent)) parent[last] = clone(operation.value);
        else throw new KustomizeError(`add ${operation.path}: the parent is not a container`);
        break;
      case 'replace':
      case 'remove':
      case 'test':
        if (!exists) throw new KustomizeError(`${operation.op} ${operation.path}: the path does not exist`);
        if (operation.op === 'test') {
          const current = Array.isArray(parent) ? parent[Number(last)] : (parent as Record<string, unknown>)[last];
          if (JSON.stringify(current) !== JSON.stringify(operation.value)) throw new KustomizeError(`test ${operation.path} failed`);
        } else if (Array.isArray(parent)) {
          if (operation.op === 'remove') parent.splice(Number(last), 1);
          else parent[Number(last)] = clone(operation.value);
        } else if (operation.op === 'remove') delete (parent as Record<string, unknown>)[last];
        else (parent as Record<string, unknown>)[last] = clone(operation.value);
        break;
      default:
        throw new KustomizeError(`JSON 6902 op "${operation.op}" is not supported by the test renderer`);
    }
  }
  return root;
}

/** Kinds the namespace transformer leaves alone. */
const CLUSTER_SCOPED_KINDS = new Set([
  'Namespace', 'ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition', 'PersistentVolume', 'StorageClass',
  'PriorityClass', 'IngressClass', 'RuntimeClass', 'ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration',
  'APIService', 'CSIDriver', 'Node',
]);
export const isNamespaced = (object: KubernetesObject) => !CLUSTER_SCOPED_KINDS.has(object.kind);

/** The pod specs of a workload (Deployment, StatefulSet, DaemonSet, Job, CronJob, Pod...). */
export function podSpecsOf(object: KubernetesObject): Record<string, unknown>[] {
  const spec = object.spec;
  if (!isRecord(spec)) return [];
  if (object.kind === 'Pod') return [spec];
  const template = isRecord(spec.jobTemplate) && isRecord(spec.jobTemplate.spec) ? spec.jobTemplate.spec.template : spec.template;
  return isRecord(template) && isRecord(template.spec) ? [template.spec] : [];
}

const splitImage = (image: string) => {
  const [withoutDigest, digest] = image.split('@');
  const lastSlash = withoutDigest.lastIndexOf('/');
  const tagSeparator = withoutDigest.lastIndexOf(':');
  return tagSeparator > lastSlash
    ? { name: withoutDigest.slice(0, tagSeparator), tag: withoutDigest.slice(tagSeparator + 1), digest }
    : { name: withoutDigest, tag: undefined, digest };
};

function applyImages(kustomization: Kustomization, objects: KubernetesObject[]): void {
  for (const entry of kustomization.images) {
    let matched = 0;
    for (const podSpec of objects.flatMap(podSpecsOf)) {
      for (const field of ['initContainers', 'containers']) {
        const containers = podSpec[field];
        if (!Array.isArray(containers)) continue;
        for (const container of containers) {
          if (!isRecord(container) || typeof container.image !== 'string') continue;
          const image = splitImage(container.image);
          if (image.name !== entry.name) continue;
          matched += 1;
          const name = entry.newName ?? image.name;
          const digest = entry.digest ?? (entry.newTag === undefined ? image.digest : undefined);
          const tag = entry.digest !== undefined ? undefined : (entry.newTag ?? image.tag);
          container.image = `${name}${tag !== undefined ? `:${tag}` : ''}${digest !== undefined ? `@${digest}` : ''}`;
        }
      }
    }
    if (matched === 0) fail(kustomization.file, `images entry "${entry.name}" matches no container image`);
  }
}

function applyReplicas(kustomization: Kustomization, objects: KubernetesObject[]): void {
  for (const entry of kustomization.replicas) {
    const targets = objects.filter(
      (object) => ['Deployment', 'StatefulSet', 'ReplicaSet'].includes(object.kind) && object.metadata.name === entry.name,
    );
    if (targets.length === 0) fail(kustomization.file, `replicas entry "${entry.name}" matches no workload`);
    for (const target of targets) (target.spec as Record<string, unknown>).replicas = entry.count;
  }
}

/** What `kustomize build <dir>` would print, as objects, for the supported subset. */
export function renderKustomization(dir: string, seen: string[] = []): KubernetesObject[] {
  const absolute = resolve(dir);
  if (seen.includes(absolute)) throw new KustomizeError(`kustomization cycle: ${[...seen, absolute].join(' -> ')}`);
  const kustomization = loadKustomization(absolute);
  let objects = loadResources(kustomization, [...seen]).map(clone);

  for (const entry of kustomization.patches) {
    const patch = readPatch(kustomization, entry);
    const targets = new Set(selectPatchTargets(kustomization, entry, patch, objects));
    objects = objects.map((object) => {
      if (!targets.has(object)) return object;
      const patched = patch.type === 'strategic-merge' ? strategicMerge(object, patch.content) : applyJsonPatch(object, patch.operations);
      if (!isKubernetesObject(patched)) fail(kustomization.file, `patching ${describeObject(object)} left no valid object`);
      return patched as KubernetesObject;
    });
  }
  if (kustomization.namespace !== undefined) {
    for (const object of objects) if (isNamespaced(object)) object.metadata.namespace = kustomization.namespace;
  }
  applyImages(kustomization, objects);
  applyReplicas(kustomization, objects);
  return objects;
}

/** The folders of the kustomization files among `yamlFiles`. */
export const kustomizationDirs = (yamlFiles: string[]) => yamlFiles.filter(isKustomizationFile).map((file) => dirname(file));
