import { WARNING_CLASSES, warningHelpUrl } from '@ringfence/contracts';
import { type EmbeddedService, startEmbeddedService } from '../support/embedded-service';

/** A warning's `help` must resolve on the server that sent it: /docs/api, at the class's anchor. */
describe('the API documentation at /docs/api (embedded, over HTTPS)', () => {
  let service: EmbeddedService;

  beforeAll(async () => {
    service = await startEmbeddedService();
  }, 60_000);

  afterAll(async () => {
    await service?.close();
  });

  it('serves docs/api.md as HTML without credentials', async () => {
    const answer = await service.client.send<string>({ path: '/docs/api' });

    expect(answer.status).toBe(200);
    expect(String(answer.headers['content-type'])).toMatch(/^text\/html; charset=utf-8/);
    expect(String(answer.body)).toContain('<title>API conventions integrators can rely on</title>');
  });

  it.each(WARNING_CLASSES.map((warningClass) => [warningClass]))('has the anchor the help of a %s warning points to', async (warningClass) => {
    const help = new URL(warningHelpUrl(warningClass), 'https://ringfence.invalid');
    const page = await service.client.send<string>({ path: help.pathname });

    expect(page.status).toBe(200);
    expect(help.hash).toBe(`#warning-${warningClass}`);
    expect(String(page.body)).toContain(` id="${help.hash.slice(1)}"`);
  });

  it('leaves the OpenAPI reference at /docs', async () => {
    const swagger = await service.client.send<string>({ path: '/docs' });

    expect(swagger.status).toBe(200);
    expect(String(swagger.body)).toContain('swagger-ui');
    const assets = [...String(swagger.body).matchAll(/(?:src|href)="([^"]+\.(?:js|css))"/g)].map((match) => new URL(match[1], 'https://ringfence.invalid/docs').pathname);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) expect([asset, (await service.client.send({ path: asset })).status]).toEqual([asset, 200]);
  });
});
