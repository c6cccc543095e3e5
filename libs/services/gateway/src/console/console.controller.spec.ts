import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type Logger, loadConfig } from '@ringfence/platform';
import { createHttpApp } from '@ringfence/service-runtime';
import pino from 'pino';
import { CONSOLE_CONTENT_SECURITY_POLICY, CYTOSCAPE_CONTAINER_STYLE, ConsoleAssets } from './console-assets';
import { CONSOLE_ASSETS, ConsoleController } from './console.controller';

const PAGE = '<!doctype html><title>Ringfence console</title><script src="/console/assets/app.js"></script>';
const SCRIPT = 'console.log("bundle")';
const SECRET = 'a file beside the bundle that must never be served';

interface Served {
  app: NestFastifyApplication;
  get(url: string, headers?: Record<string, string>): Promise<{ statusCode: number; headers: Record<string, unknown>; body: string }>;
}

async function serve(assets: ConsoleAssets): Promise<Served> {
  @Module({ controllers: [ConsoleController], providers: [{ provide: CONSOLE_ASSETS, useValue: assets }] })
  class ConsoleOnlyModule {}
  const config = loadConfig({ PORT: '0', LOG_LEVEL: 'silent' }, { port: 8443 });
  const { app } = await createHttpApp(ConsoleOnlyModule, { config, logger: pino({ level: 'silent' }) as unknown as Logger });
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return {
    app,
    async get(url, headers = {}) {
      const response = await app.getHttpAdapter().getInstance().inject({ method: 'GET', url, headers });
      return { statusCode: response.statusCode, headers: response.headers, body: response.body };
    },
  };
}

const directives = (policy: string) => new Map(policy.split(';').map((directive) => directive.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));

describe(ConsoleController.name, () => {
  let root: string;
  let served: Served;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'ringfence-console-'));
    const bundle = join(root, 'console');
    mkdirSync(bundle);
    writeFileSync(join(bundle, 'index.html'), PAGE);
    writeFileSync(join(bundle, 'app.js'), SCRIPT);
    writeFileSync(join(bundle, 'app.css'), 'body { color: #111 }');
    writeFileSync(join(bundle, '.hidden.js'), SECRET);
    writeFileSync(join(root, 'secret.txt'), SECRET);
    symlinkSync(join(root, 'secret.txt'), join(bundle, 'linked.txt'));
    served = await serve(ConsoleAssets.load([join(root, 'missing'), bundle]));
  });

  afterAll(async () => {
    await served.app.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('serves the page under a strict Content-Security-Policy: no inline script, nothing from elsewhere, no framing', async () => {
    const response = await served.get('/console');

    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toBe(PAGE);
    expect(response.headers['content-security-policy']).toBe(CONSOLE_CONTENT_SECURITY_POLICY);
    const policy = directives(CONSOLE_CONTENT_SECURITY_POLICY);
    expect(policy.get('default-src')).toEqual(["'self'"]);
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(policy.get('connect-src')).toEqual(["'self'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(CONSOLE_CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-|\*|https?:/);
    expect(response.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY', 'referrer-policy': 'no-referrer', 'cache-control': 'no-cache' });
  });

  it('allows exactly the one style element cytoscape adds, by its hash, and cytoscape still adds that text', () => {
    const hash = `'sha256-${createHash('sha256').update(CYTOSCAPE_CONTAINER_STYLE).digest('base64')}'`;
    expect(directives(CONSOLE_CONTENT_SECURITY_POLICY).get('style-src')).toEqual(["'self'", hash]);

    const cytoscape = readFileSync(join(__dirname, '../../../../../node_modules/cytoscape/dist/cytoscape.esm.mjs'), 'utf8');
    expect(cytoscape).toContain("var className = '__________cytoscape_container';");
    expect(cytoscape).toContain("stylesheet.textContent = '.' + className + ' { position: relative; }';");
  });

  it('serves an asset with its type, and answers a revalidation with 304 and no body', async () => {
    const first = await served.get('/console/assets/app.js');

    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(first.body).toBe(SCRIPT);
    expect(first.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);

    const again = await served.get('/console/assets/app.js', { 'if-none-match': `W/"other", ${String(first.headers.etag)}` });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers['content-security-policy']).toBe(CONSOLE_CONTENT_SECURITY_POLICY);
    expect((await served.get('/console/assets/app.css')).headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('redirects /console/ to the page', async () => {
    const response = await served.get('/console/');

    expect(response.statusCode).toBe(308);
    expect(response.headers.location).toBe('/console');
  });

  it('answers the error envelope for an unknown asset', async () => {
    const response = await served.get('/console/assets/nope.js');

    expect(response.statusCode).toBe(404);
    expect(JSON.parse(response.body)).toEqual({ status: 404, message: 'no console asset "nope.js"', timestamp: expect.any(Number), traceId: expect.any(String) });
  });

  it.each([
    '/console/assets/..%2Fsecret.txt',
    '/console/assets/%2e%2e%2f%2e%2e%2fpackage.json',
    '/console/assets/..%5Csecret.txt',
    '/console/assets/../secret.txt',
    '/console/assets/.hidden.js',
    '/console/assets/linked.txt',
    '/console/assets/index.html',
    '/console/assets/app.js%00.txt',
  ])('refuses %s: only the bundle\'s own files, by name', async (url) => {
    const response = await served.get(url);

    expect([400, 404]).toContain(response.statusCode);
    expect(response.body).not.toContain(SECRET);
    expect(JSON.parse(response.body)).toMatchObject({ status: response.statusCode, traceId: expect.any(String) });
  });

  it('still starts without a build, answering a 404 that says how to build the console', async () => {
    const unbuilt = await serve(ConsoleAssets.load([join(root, 'missing')]));
    try {
      const response = await unbuilt.get('/console');

      expect(response.statusCode).toBe(404);
      expect(JSON.parse(response.body)).toMatchObject({ status: 404, message: expect.stringContaining('npm run build') });
    } finally {
      await unbuilt.app.close();
    }
  });
});
