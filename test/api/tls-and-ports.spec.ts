import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { freePort } from '../support/child-service';
import { type EmbeddedService, TEST_BOOTSTRAP_KEY, startEmbeddedService } from '../support/embedded-service';
import { TestHttpClient } from '../support/https-client';

describe('operator TLS certificate and the plain-HTTP port', () => {
  let service: EmbeddedService;
  let cert: string;
  let httpPort: number;
  let dir: string | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ringfence-tls-'));
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
      keySize: 2048,
      algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }] }],
    });
    cert = pems.cert;
    writeFileSync(join(dir, 'operator-cert.pem'), pems.cert);
    writeFileSync(join(dir, 'operator-key.pem'), pems.private);
    httpPort = await freePort();
    service = await startEmbeddedService({
      TLS_CERT_FILE: join(dir, 'operator-cert.pem'),
      TLS_KEY_FILE: join(dir, 'operator-key.pem'),
      HTTP_PORT: String(httpPort),
    });
  }, 60_000);

  afterAll(async () => {
    await service?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it('serves HTTPS with the operator certificate', async () => {
    const port = (service.app.getHttpServer().address() as { port: number }).port;
    const client = new TestHttpClient(`https://localhost:${port}`, cert);
    expect((await client.send({ path: '/v2/auth/checktoken', apiKey: TEST_BOOTSTRAP_KEY })).status).toBe(200);
  });

  it('serves the same API over plain HTTP on HTTP_PORT', async () => {
    const client = new TestHttpClient(`http://localhost:${httpPort}`);
    expect((await client.send({ path: '/v2/auth/checktoken', apiKey: TEST_BOOTSTRAP_KEY })).status).toBe(200);
    expect((await client.send({ path: '/v2/auth/checktoken' })).status).toBe(401);
  });
});
