import { readFileSync } from 'node:fs';
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

/**
 * The Node options the standalone app runs with, as `npm start` runs it (`node <options> <entrypoint>`):
 * the image's default command and the compose service pass the same.
 */
export function standaloneNodeOptions(): string[] {
  const { scripts } = JSON.parse(readFileSync(resolve(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const [node, ...rest] = scripts.start.split(/\s+/);
  if (node !== 'node' || rest[rest.length - 1] !== appEntrypoint(STANDALONE_APP)) throw new Error(`npm start is not \`node [options] ${appEntrypoint(STANDALONE_APP)}\`: ${scripts.start}`);
  return rest.slice(0, -1);
}

/** What an app's container runs after `node`: its entrypoint, and for the standalone app the options `npm start` gives it first. */
export const appCommand = (app: string): string[] => (app === STANDALONE_APP ? [...standaloneNodeOptions(), appEntrypoint(app)] : [appEntrypoint(app)]);
