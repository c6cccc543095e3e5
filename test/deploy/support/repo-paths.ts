import { resolve } from 'node:path';

export const REPO_ROOT = resolve(__dirname, '../../..');
export const DOCKER_DIR = resolve(REPO_ROOT, 'docker');
export const K8S_DIR = resolve(REPO_ROOT, 'k8s');

export const DOCKERFILE = resolve(DOCKER_DIR, 'Dockerfile');
/** BuildKit reads `<Dockerfile>.dockerignore` beside the Dockerfile before the context's own. */
export const DOCKERIGNORE = resolve(DOCKER_DIR, 'Dockerfile.dockerignore');
export const COMPOSE_FILE = resolve(DOCKER_DIR, 'compose.yaml');

/** The apps of the distributed mode: one process, Deployment and Service each. */
export const DISTRIBUTED_APPS = ['gateway', 'ingestion', 'graph', 'scoring', 'lookup', 'labelling'] as const;
/** The apps the platform scales on load: each has a HorizontalPodAutoscaler and a PodDisruptionBudget. */
export const AUTOSCALED_APPS = ['gateway', 'ingestion'] as const;
/** The embedded mode: every service module in one process. */
export const STANDALONE_APP = 'standalone';

/** The gateway serves HTTPS; every other distributed app serves plain HTTP ops endpoints. */
export const HTTPS_APPS: readonly string[] = ['gateway', STANDALONE_APP];

export const appEntrypoint = (app: string) => `dist/apps/${app}/src/main.js`;
/** The source of an app's entrypoint, compiled to `appEntrypoint(app)`. */
export const appSource = (app: string) => resolve(REPO_ROOT, 'apps', app, 'src', 'main.ts');
