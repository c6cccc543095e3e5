import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { ALL_TOPICS } from '@ringfence/contracts';
import { isKubernetesObject, validateKubernetesObject } from './support/kubernetes-models';
import {
  isKustomizationFile,
  kustomizationDirs as kustomizationDirsOf,
  loadKustomization,
  loadResources,
  patchTargets,
  resolvePatchFile,
  resolveResource,
  type Kustomization,
} from './support/kustomize';
import { K8S_DIR, REPO_ROOT } from './support/repo-paths';
import { listYamlFiles, readYamlDocuments } from './support/yaml-files';

/*
 * Every YAML file under k8s/, file by file: schema validation of each resource against the
 * Kubernetes OpenAPI schema (kubernetes-models), and light checks of the kustomizations.
 * The rendered overlays are checked in k8s-workloads.spec.ts.
 */

const yamlFiles = listYamlFiles(K8S_DIR);
const show = (file: string) => relative(REPO_ROOT, file);
const kustomizationDirs = kustomizationDirsOf(yamlFiles);

/** For classifying files only; the tests below report a kustomization that does not load. */
const loadedKustomizations = kustomizationDirs.flatMap((dir): Kustomization[] => {
  try {
    return [loadKustomization(dir)];
  } catch {
    return [];
  }
});
const patchFiles = new Set(
  loadedKustomizations.flatMap((kustomization) =>
    kustomization.patches.flatMap((entry) => {
      try {
        return [resolvePatchFile(kustomization, entry)].filter((file): file is string => file !== undefined);
      } catch {
        return [];
      }
    }),
  ),
);
const resourceFiles = new Set(
  loadedKustomizations.flatMap((kustomization) =>
    kustomization.resources.flatMap((reference) => {
      try {
        const resolved = resolveResource(kustomization, reference);
        return resolved.kind === 'file' ? [resolved.path] : [];
      } catch {
        return [];
      }
    }),
  ),
);
const isExampleFile = (file: string) => /\.example\.ya?ml$/.test(file);
/** Files that hold whole resources: everything except kustomizations and patches. */
const manifestFiles = yamlFiles.filter((file) => !isKustomizationFile(file) && !patchFiles.has(file));

describe('k8s/ manifests', () => {
  it('has a kustomize base and the dev and prod overlays', () => {
    expect(kustomizationDirs.map(show)).toEqual(expect.arrayContaining(['k8s/base', 'k8s/overlays/dev', 'k8s/overlays/prod']));
  });

  it.each(yamlFiles.map(show))('%s is well-formed YAML without duplicate keys', (file) => {
    expect(() => readYamlDocuments(`${REPO_ROOT}/${file}`)).not.toThrow();
  });

  it.each(manifestFiles.map(show))('%s: every document is a known Kubernetes kind that passes its schema', (file) => {
    const documents = readYamlDocuments(`${REPO_ROOT}/${file}`);
    expect(documents.length).toBeGreaterThan(0);
    for (const [index, document] of documents.entries()) {
      if (!isKubernetesObject(document)) throw new Error(`${file} document ${index + 1}: needs apiVersion, kind and metadata.name`);
      validateKubernetesObject(document);
    }
  });

  it('has no stray YAML: each file is a kustomization, a resource or patch of one, or an *.example.yaml', () => {
    const strays = manifestFiles.filter((file) => !resourceFiles.has(file) && !isExampleFile(file));
    expect(strays.map(show)).toEqual([]);
  });

  it('keeps secret values out of every kustomization: *.example.yaml is never a resource, no Secret is rendered from the repo', () => {
    expect([...resourceFiles].filter(isExampleFile).map(show)).toEqual([]);
    const shippedSecrets = [...resourceFiles].flatMap((file) =>
      readYamlDocuments(file)
        .filter((document) => isKubernetesObject(document) && document.kind === 'Secret')
        .map(() => show(file)),
    );
    expect(shippedSecrets).toEqual([]);
  });

  it('tells operators (k8s/README.md) every Kafka topic to create beforehand', () => {
    const readme = readFileSync(`${K8S_DIR}/README.md`, 'utf8');
    expect(ALL_TOPICS.filter((topic) => !readme.includes(topic))).toEqual([]);
  });

  it('ships an example of the Secret the apps read', () => {
    const examples = yamlFiles.filter(isExampleFile).flatMap((file) => readYamlDocuments(file));
    expect(examples.filter((document) => isKubernetesObject(document) && document.kind === 'Secret')).not.toHaveLength(0);
  });
});

describe.each(kustomizationDirs.map(show))('kustomization %s', (dir) => {
  const load = () => loadKustomization(`${REPO_ROOT}/${dir}`);

  it('is a Kustomization (kustomize.config.k8s.io/v1beta1) using only fields the test renderer supports', () => {
    expect(load).not.toThrow();
  });

  it('lists resources that exist on disk, as YAML files or kustomization folders', () => {
    const kustomization = load();
    expect(kustomization.resources.length).toBeGreaterThan(0);
    for (const reference of kustomization.resources) expect(() => resolveResource(kustomization, reference)).not.toThrow();
  });

  it('has patches whose files exist and whose targets are among its resources', () => {
    const kustomization = load();
    const resources = loadResources(kustomization);
    for (const entry of kustomization.patches) {
      resolvePatchFile(kustomization, entry);
      expect(patchTargets(kustomization, entry, resources).length).toBeGreaterThan(0);
    }
  });

  it('sets its namespace only in overlays, and then ships that Namespace', () => {
    const kustomization = load();
    if (dir === 'k8s/base') {
      expect(kustomization.namespace).toBeUndefined();
      return;
    }
    expect(kustomization.namespace).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
    const namespaces = loadResources(kustomization).filter((object) => object.kind === 'Namespace');
    expect(namespaces.map((object) => object.metadata.name)).toEqual([kustomization.namespace]);
  });
});
