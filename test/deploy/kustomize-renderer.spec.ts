import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { KubernetesObject } from './support/kubernetes-models';
import { applyJsonPatch, KustomizeError, renderKustomization, selectTargets, strategicMerge } from './support/kustomize';

/* The test renderer itself: the overlay checks are only as good as its kustomize semantics. */

const deployment = (name: string, overrides: Record<string, unknown> = {}): KubernetesObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, labels: { tier: 'api' } },
  spec: {
    template: {
      spec: {
        containers: [
          { name, image: 'ringfence', env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }], resources: { limits: { cpu: '1' } } },
          { name: 'sidecar', image: 'proxy:1.0' },
        ],
      },
    },
  },
  ...overrides,
});

describe('strategicMerge', () => {
  it('merges containers and env by name, replaces scalars and deletes on null', () => {
    const merged = strategicMerge(deployment('gateway'), {
      spec: { template: { spec: { containers: [{ name: 'gateway', env: [{ name: 'B', value: '3' }, { name: 'C', value: '4' }], resources: { limits: null } }] } } },
    }) as KubernetesObject;
    const [gateway, sidecar] = (merged.spec as { template: { spec: { containers: Record<string, unknown>[] } } }).template.spec.containers;
    expect(gateway.env).toEqual([{ name: 'A', value: '1' }, { name: 'B', value: '3' }, { name: 'C', value: '4' }]);
    expect(gateway.resources).toEqual({});
    expect(sidecar).toEqual({ name: 'sidecar', image: 'proxy:1.0' });
  });

  it('replaces lists without a merge key', () => {
    expect(strategicMerge({ args: ['a', 'b'] }, { args: ['c'] })).toEqual({ args: ['c'] });
  });

  it('refuses $patch directives rather than misapplying them', () => {
    expect(() => strategicMerge({ a: 1 }, { $patch: 'replace', a: 2 })).toThrow(KustomizeError);
  });
});

describe('applyJsonPatch', () => {
  it('replaces, adds and removes', () => {
    expect(applyJsonPatch({ spec: { replicas: 1, list: [1] } }, [
      { op: 'replace', path: '/spec/replicas', value: 3 },
      { op: 'add', path: '/spec/list/-', value: 2 },
      { op: 'remove', path: '/spec/list/0' },
    ])).toEqual({ spec: { replicas: 3, list: [2] } });
  });

  it('fails on a path that does not exist, as kustomize does', () => {
    expect(() => applyJsonPatch({ spec: {} }, [{ op: 'replace', path: '/spec/minReplicas', value: 1 }])).toThrow(/does not exist/);
  });
});

describe('selectTargets', () => {
  it('matches group, version, kind, an anchored name regex and labels', () => {
    const objects = [deployment('gateway'), deployment('gateway-canary'), { ...deployment('scoring'), apiVersion: 'apps/v1beta2' }];
    expect(selectTargets(objects, { group: 'apps', version: 'v1', kind: 'Deployment', name: 'gateway' }).map((o) => o.metadata.name)).toEqual(['gateway']);
    expect(selectTargets(objects, { labelSelector: 'tier=api', version: 'v1' })).toHaveLength(2);
  });
});

describe(renderKustomization.name, () => {
  let root: string;
  const write = (path: string, content: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  };
  const base = `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources: [app.yaml]
`;
  const app = `apiVersion: apps/v1
kind: Deployment
metadata: { name: app }
spec:
  template:
    spec:
      containers:
        - { name: app, image: "ringfence" }
`;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'kustomize-'));
    write('base/kustomization.yaml', base);
    write('base/app.yaml', app);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('applies namespace, images, replicas and patches of an overlay over its base', () => {
    write('overlay/kustomization.yaml', `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: prod
resources: [../base]
images: [{ name: ringfence, newName: registry.example.com/ringfence, newTag: "1.2.3" }]
replicas: [{ name: app, count: 3 }]
patches:
  - path: patch.yaml
`);
    write('overlay/patch.yaml', `apiVersion: apps/v1
kind: Deployment
metadata: { name: app }
spec: { template: { spec: { containers: [{ name: app, args: [x] }] } } }
`);
    const [rendered] = renderKustomization(join(root, 'overlay'));
    expect(rendered.metadata.namespace).toBe('prod');
    expect(rendered.spec).toMatchObject({
      replicas: 3,
      template: { spec: { containers: [{ name: 'app', image: 'registry.example.com/ringfence:1.2.3', args: ['x'] }] } },
    });
  });

  it.each([
    ['a patch that matches nothing', 'patches: [{ path: patch.yaml }]'],
    ['an image that matches no container', 'images: [{ name: other, newTag: "1" }]'],
    ['replicas for a missing workload', 'replicas: [{ name: missing, count: 2 }]'],
    ['a field the renderer does not implement', 'namePrefix: x-'],
    ['a resource that does not exist', 'resources: [../base, missing.yaml]'],
  ])('fails on %s', (_, extra) => {
    write('overlay/patch.yaml', 'apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: missing }\n');
    const resources = extra.startsWith('resources:') ? '' : 'resources: [../base]\n';
    write('overlay/kustomization.yaml', `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n${resources}${extra}\n`);
    expect(() => renderKustomization(join(root, 'overlay'))).toThrow(KustomizeError);
  });
});
