import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type Logger, loadConfig } from '@ringfence/platform';
import { createHttpApp } from '@ringfence/service-runtime';
import pino from 'pino';
import { ConsoleAssets } from '../console/console-assets';
import { CLIENT_SDK_ASSETS, ClientSdkController, SAMPLE_PAGE_CONTENT_SECURITY_POLICY } from './client-sdk.controller';

const SCRIPT = 'var Ringfence=(()=>({}))();';
const MODULE = 'export function init(){}';
const PAGE = '<!doctype html><script src="ringfence.js"></script>';

async function serve(assets: ConsoleAssets): Promise<NestFastifyApplication> {
  @Module({ controllers: [ClientSdkController], providers: [{ provide: CLIENT_SDK_ASSETS, useValue: assets }] })
  class ClientSdkOnlyModule {}
  const config = loadConfig({ PORT: '0', LOG_LEVEL: 'silent' }, { port: 8443 });
  const { app } = await createHttpApp(ClientSdkOnlyModule, { config, logger: pino({ level: 'silent' }) as unknown as Logger });
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return app;
}

describe(ClientSdkController.name, () => {
  let root: string;
  let app: NestFastifyApplication;
  const get = (url: string, headers: Record<string, string> = {}) => app.getHttpAdapter().getInstance().inject({ method: 'GET', url, headers });

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'ringfence-client-'));
    writeFileSync(join(root, 'ringfence.js'), SCRIPT);
    writeFileSync(join(root, 'ringfence.mjs'), MODULE);
    writeFileSync(join(root, 'sample-checkout.html'), PAGE);
    app = await serve(ConsoleAssets.load([join(root, 'missing'), root], 'ringfence.js'));
  });

  afterAll(async () => {
    await app.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('serves the script and the ES module without a key, as JavaScript, cached ten minutes and readable from any origin', async () => {
    for (const [url, body] of [['/client/ringfence.js', SCRIPT], ['/client/ringfence.mjs', MODULE]]) {
      const response = await get(url);

      expect(response.statusCode).toBe(200);
      expect(response.body).toBe(body);
      expect(response.headers).toMatchObject({
        'content-type': 'text/javascript; charset=utf-8',
        'cache-control': 'public, max-age=600',
        'access-control-allow-origin': '*',
        'cross-origin-resource-policy': 'cross-origin',
        'x-content-type-options': 'nosniff',
        etag: expect.stringMatching(/^"[A-Za-z0-9_-]{27}"$/),
      });
    }
  });

  it('answers a revalidation with 304', async () => {
    const first = await get('/client/ringfence.js');
    const again = await get('/client/ringfence.js', { 'if-none-match': String(first.headers.etag) });

    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('serves the sample page under a policy allowing its own origin only', async () => {
    const response = await get('/client/sample-checkout.html');

    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-security-policy']).toBe(SAMPLE_PAGE_CONTENT_SECURITY_POLICY);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(SAMPLE_PAGE_CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-|\*|https?:/);
  });

  it.each(['/client/nope.js', '/client/..%2Fpackage.json', '/client/.hidden'])('answers 404 for %s', async (url) => {
    const response = await get(url);

    expect([400, 404]).toContain(response.statusCode);
    expect(JSON.parse(response.body)).toMatchObject({ status: response.statusCode, traceId: expect.any(String) });
  });

  it('still starts without a build, answering a 404 that says how to build the SDK', async () => {
    const unbuilt = await serve(ConsoleAssets.load([join(root, 'missing')], 'ringfence.js'));
    try {
      const response = await unbuilt.getHttpAdapter().getInstance().inject({ method: 'GET', url: '/client/ringfence.js' });

      expect(response.statusCode).toBe(404);
      expect(JSON.parse(response.body)).toMatchObject({ message: expect.stringContaining('npm run build') });
    } finally {
      await unbuilt.close();
    }
  });
});
