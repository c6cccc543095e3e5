import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import type { Logger, RingfenceConfig } from '@ringfence/platform';

export interface TlsMaterial {
  cert: string;
  key: string;
}

/**
 * The gateway's certificate: the operator's files when TLS_CERT_FILE/TLS_KEY_FILE are set,
 * else a self-signed one generated once into DATA_DIR/tls (key mode 0600) and reused after.
 */
export async function loadTlsMaterial(config: RingfenceConfig, logger: Logger): Promise<TlsMaterial> {
  if (config.tls) {
    return { cert: await readFile(config.tls.certFile, 'utf8'), key: await readFile(config.tls.keyFile, 'utf8') };
  }
  const dir = join(config.dataDir, 'tls');
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  try {
    return { cert: await readFile(certFile, 'utf8'), key: await readFile(keyFile, 'utf8') };
  } catch {
    // First start: generate below.
  }
  const notBeforeDate = new Date();
  const notAfterDate = new Date(notBeforeDate.getTime() + 825 * 24 * 3600 * 1000);
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048,
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await writeFile(certFile, pems.cert, { mode: 0o644 });
  await writeFile(keyFile, pems.private, { mode: 0o600 });
  logger.warn({ certFile }, 'generated a self-signed TLS certificate; set TLS_CERT_FILE and TLS_KEY_FILE for production');
  return { cert: pems.cert, key: pems.private };
}
