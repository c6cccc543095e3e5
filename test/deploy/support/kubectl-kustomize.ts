import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isKubernetesObject, type KubernetesObject } from './kubernetes-models';
import { isRecord, parseYamlDocuments } from './yaml-files';

/*
 * The real renderer: `kubectl kustomize`, the kustomize built into kubectl, exactly what
 * `kubectl apply -k` applies. CI installs Debian's `kubernetes-client` (kubectl 1.20, kustomize
 * v2.0.3) unless a kubectl is already installed (.ci/run); any newer kubectl renders the same
 * kustomizations. KUBECTL=/path/to/kubectl picks another binary.
 */

export const KUSTOMIZATION_FILE_NAMES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];

export const kubectlBinary = () => process.env.KUBECTL ?? 'kubectl';

function runKubectl(args: string[]): string {
  try {
    return execFileSync(kubectlBinary(), args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { stderr?: string };
    if (failure.code === 'ENOENT') {
      throw new Error(
        `${kubectlBinary()} not found: the deploy tests render k8s/ with \`kubectl kustomize\`. ` +
          'Install Debian\'s kubernetes-client (apt-get install kubernetes-client), or set KUBECTL to a kubectl binary.',
      );
    }
    throw new Error(`${kubectlBinary()} ${args.join(' ')} failed:\n${failure.stderr ?? failure.message}`);
  }
}

/** `kubectl version --client`, for the test report. */
export const kubectlVersion = () => runKubectl(['version', '--client']).trim();

/** Every object `kubectl apply -k dir` would apply, in kustomize's order. */
export function renderKustomization(dir: string): KubernetesObject[] {
  const documents = parseYamlDocuments(runKubectl(['kustomize', dir]), `kubectl kustomize ${dir}`);
  return documents.map((document, index) => {
    if (!isKubernetesObject(document)) throw new Error(`kubectl kustomize ${dir}: document ${index + 1} is not a Kubernetes object`);
    // Newer kustomize wraps long base64 values of a Secret's data over several lines. kubectl's
    // base64 decoder skips line breaks, so the API server gets the same bytes; the schema's
    // "byte" format does not, so join the lines back before validation.
    if (document.kind === 'Secret' && isRecord(document.data)) {
      for (const [key, value] of Object.entries(document.data)) if (typeof value === 'string') document.data[key] = value.replace(/\s+/g, '');
    }
    return document;
  });
}

export const isKustomizationFile = (file: string) => KUSTOMIZATION_FILE_NAMES.some((name) => file.endsWith(`/${name}`));

/** The folders under k8s/ that hold a kustomization, from the list of YAML files. */
export const kustomizationDirs = (yamlFiles: string[]) => [...new Set(yamlFiles.filter(isKustomizationFile).map((file) => dirname(file)))].sort();

/** The kustomization file of a folder, parsed (for the fields the tests compare with the output). */
export function readKustomization(dir: string): Record<string, unknown> {
  const file = KUSTOMIZATION_FILE_NAMES.map((name) => join(dir, name)).find((candidate) => existsSync(candidate));
  if (!file) throw new Error(`${dir}: no kustomization file`);
  const [content] = parseYamlDocuments(readFileSync(file, 'utf8'), file);
  if (!isRecord(content)) throw new Error(`${file}: not a YAML mapping`);
  return content;
}

/** Kinds without a namespace among those k8s/ uses; everything else is namespaced. */
const CLUSTER_SCOPED_KINDS = new Set(['Namespace', 'PersistentVolume', 'StorageClass', 'ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition', 'PriorityClass']);
export const isNamespaced = (object: KubernetesObject) => !CLUSTER_SCOPED_KINDS.has(object.kind);

/** The pod template's spec of a workload (Deployment, StatefulSet, DaemonSet, Job), if it has one. */
export function podSpecOf(object: KubernetesObject): Record<string, unknown> | undefined {
  const spec = object.spec as { template?: { spec?: unknown } } | undefined;
  return isRecord(spec?.template?.spec) ? spec.template.spec : undefined;
}
