import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import * as ts from 'typescript';
import { dockerignoreMatcher, envOf, execForm, readDockerfile, splitFlags, type Stage } from './support/dockerfile';
import { appCommand, appSource, DOCKERFILE, DOCKERIGNORE, REPO_ROOT, STANDALONE_APP } from './support/repo-paths';

/*
 * Static checks of docker/Dockerfile and of the build context it sees
 * (docker/Dockerfile.dockerignore). Nothing is built: no Docker engine runs here.
 */

const dockerfile = () => readDockerfile(DOCKERFILE);
const finalStage = () => dockerfile().stages[dockerfile().stages.length - 1];
const instructionsOf = (stage: Stage, keyword: string) => stage.instructions.filter((instruction) => instruction.keyword === keyword);
/** The npm commands of a stage's RUN instructions, RUN flags (`--mount=...`) stripped. */
const npmCommands = (stage: Stage) =>
  instructionsOf(stage, 'RUN').flatMap((instruction) =>
    splitFlags(instruction.args)
      .words.join(' ')
      .split(/&&|;|\|\|/)
      .map((part) => part.trim())
      .filter((part) => /^npm\s/.test(part)),
  );
const installsDevDependencies = (stage: Stage) =>
  npmCommands(stage).some((command) => /^npm\s+(ci|install|i)\b/.test(command) && !/--omit[= ]dev|--only[= ]prod|--production/.test(command));

/** The stage chain a stage builds on, itself first. */
function ancestry(stage: Stage): Stage[] {
  const byName = new Map(dockerfile().stages.map((candidate) => [candidate.name, candidate]));
  const chain = [stage];
  for (let parent = byName.get(stage.image); parent; parent = byName.get(parent.image)) chain.push(parent);
  return chain;
}

describe('docker/Dockerfile', () => {
  it('names every stage, each name once', () => {
    const stages = dockerfile().stages;
    expect(stages.filter((stage) => stage.name === undefined).map((stage) => `line ${stage.line}: FROM ${stage.image}`)).toEqual([]);
    expect(new Set(stages.map((stage) => stage.name)).size).toBe(stages.length);
  });

  it('builds every stage on node:24-bookworm-slim (an LTS line), directly or through an earlier stage', () => {
    const earlier = new Set<string | undefined>();
    for (const stage of dockerfile().stages) {
      if (!earlier.has(stage.image)) expect(stage.image).toMatch(/^node:24(\.\d+){0,2}-bookworm-slim(@sha256:[a-f0-9]{64})?$/);
      earlier.add(stage.name);
    }
  });

  it('copies --from earlier stages only', () => {
    const earlier: (string | undefined)[] = [];
    for (const stage of dockerfile().stages) {
      for (const copy of instructionsOf(stage, 'COPY')) {
        const from = splitFlags(copy.args).flags.from;
        if (from !== undefined) expect({ line: copy.line, from, known: earlier.includes(from) }).toEqual({ line: copy.line, from, known: true });
      }
      earlier.push(stage.name);
    }
  });

  it('never ADDs a remote URL (unverified downloads at build time)', () => {
    const remote = dockerfile().stages.flatMap((stage) =>
      instructionsOf(stage, 'ADD').filter((add) => splitFlags(add.args).words.some((word) => /^(https?|ftp|git):\/\/|^git@/.test(word))),
    );
    expect(remote.map((add) => `line ${add.line}: ADD ${add.args}`)).toEqual([]);
  });

  it('runs the final stage as a non-root, numeric USER (so runAsNonRoot can verify it)', () => {
    const users = instructionsOf(finalStage(), 'USER');
    const user = users[users.length - 1]?.args;
    expect(user).toBeDefined();
    const [uid, gid] = (user as string).split(':');
    expect(uid).toMatch(/^\d+$/);
    expect(Number(uid)).toBeGreaterThan(0);
    if (gid !== undefined) expect(Number(gid)).toBeGreaterThan(0);
  });

  it('installs every dependency and builds dist/ in a build stage that the runtime image copies dist/ from', () => {
    const stages = dockerfile().stages;
    const builder = stages.find((stage) => ancestry(stage).some((ancestor) => npmCommands(ancestor).some((command) => /^npm\s+run\s+build\b/.test(command))));
    expect(builder?.name).toBeDefined();
    expect(ancestry(builder as Stage).some((stage) => npmCommands(stage).some((command) => /^npm\s+ci\b/.test(command)))).toBe(true);
    const copiesDist = instructionsOf(finalStage(), 'COPY').some((copy) => {
      const { flags, words } = splitFlags(copy.args);
      return flags.from === builder?.name && words.slice(0, -1).some((source) => /(^|\/)dist\/?$/.test(source));
    });
    expect(copiesDist).toBe(true);
  });

  it('ships production dependencies only: node_modules comes from a stage that never installed dev dependencies', () => {
    const final = finalStage();
    expect(ancestry(final).some(installsDevDependencies)).toBe(false);
    const byName = new Map(dockerfile().stages.map((stage) => [stage.name, stage]));
    const sources = instructionsOf(final, 'COPY')
      .map((copy) => splitFlags(copy.args))
      .filter(({ words }) => words.slice(0, -1).some((source) => /(^|\/)node_modules\/?$/.test(source)));
    expect(sources).toHaveLength(1);
    const source = byName.get(sources[0].flags.from);
    expect(source).toBeDefined();
    const chain = ancestry(source as Stage);
    expect(chain.some(installsDevDependencies)).toBe(false);
    expect(chain.flatMap(npmCommands).some((command) => /--omit[= ]dev|--production|^npm\s+prune/.test(command))).toBe(true);
  });

  it('sets up the runtime for the apps: production, DATA_DIR=/data as a volume, ports 8443 and 8080, node as entrypoint, standalone by default with the options `npm start` gives it', () => {
    const final = finalStage();
    expect(envOf(final)).toMatchObject({ NODE_ENV: 'production', DATA_DIR: '/data' });
    const volumes = instructionsOf(final, 'VOLUME').flatMap((volume) => execForm(volume.args) ?? volume.args.split(/\s+/));
    expect(volumes).toContain('/data');
    const exposed = instructionsOf(final, 'EXPOSE').flatMap((expose) => expose.args.split(/\s+/).map((port) => port.split('/')[0]));
    expect(exposed).toEqual(expect.arrayContaining(['8443', '8080']));
    const entrypoints = instructionsOf(final, 'ENTRYPOINT');
    expect(execForm(entrypoints[entrypoints.length - 1]?.args ?? '')).toEqual(['node']);
    const commands = instructionsOf(final, 'CMD');
    expect(execForm(commands[commands.length - 1]?.args ?? '')).toEqual(appCommand(STANDALONE_APP));
    expect(existsSync(appSource(STANDALONE_APP))).toBe(true);
  });
});

describe('docker/Dockerfile.dockerignore (the build context of `docker build -f docker/Dockerfile .`)', () => {
  const isIgnored = () => dockerignoreMatcher(readFileSync(DOCKERIGNORE, 'utf8'));

  /**
   * What `npm run build` reads: package.json's build script, the files it copies into dist/
   * (`copyFileSync('docs/api.md', …)`), tsconfig.build.json, its bases and sources.
   */
  function buildInputs(): string[] {
    const packageJson = JSON.parse(readFileSync(resolve(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string>; bin?: Record<string, string> };
    const buildScript = /^node\s+(\S+)/.exec(packageJson.scripts.build)?.[1];
    const inputs = ['package.json', 'package-lock.json', ...(buildScript ? [buildScript] : []), ...Object.values(packageJson.bin ?? {})];
    if (buildScript) {
      const copied = [...readFileSync(resolve(REPO_ROOT, buildScript), 'utf8').matchAll(/copyFileSync\('([^']+)'/g)].map((match) => match[1]);
      expect(copied).toContain('docs/api.md');
      inputs.push(...copied);
    }
    for (let config: string | undefined = resolve(REPO_ROOT, 'tsconfig.build.json'); config; ) {
      inputs.push(relative(REPO_ROOT, config));
      const { config: content } = ts.readConfigFile(config, ts.sys.readFile) as { config: { extends?: string; include?: string[] } };
      for (const pattern of content.include ?? []) inputs.push(pattern.replace(/\*\*\/\*\.ts$/, 'example/src/main.ts'));
      config = content.extends ? resolve(dirname(config), content.extends) : undefined;
    }
    return inputs;
  }

  it('sits beside the Dockerfile, named after it, so BuildKit uses it for that Dockerfile', () => {
    expect(existsSync(DOCKERIGNORE)).toBe(true);
    expect(relative(dirname(DOCKERFILE), DOCKERIGNORE)).toBe('Dockerfile.dockerignore');
  });

  it('keeps every build input and every COPY source in the context', () => {
    const copySources = dockerfile().stages.flatMap((stage) =>
      instructionsOf(stage, 'COPY')
        .map((copy) => splitFlags(copy.args))
        .filter(({ flags }) => flags.from === undefined)
        .flatMap(({ words }) => words.slice(0, -1))
        .filter((source) => source !== '.' && source !== './'),
    );
    const ignored = [...buildInputs(), ...copySources].filter((path) => isIgnored()(path));
    expect(ignored).toEqual([]);
  });

  it('keeps secrets, local state, dependencies, build output and tests out of the context', () => {
    const mustStayOut = [
      '.git/config', '.env', 'docker/.env', 'node_modules/typescript/package.json', 'dist/apps/gateway/src/main.js',
      'data/bootstrap-key', 'apps/gateway/node_modules/x/index.js', 'libs/platform/src/config/ringfence-config.spec.ts',
      'k8s/base/secret.example.yaml', 'test/deploy/compose.spec.ts',
    ];
    expect(mustStayOut.filter((path) => !isIgnored()(path))).toEqual([]);
  });
});
