import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TLSSocket, createServer } from 'node:tls';
import { ConfigError } from '@ringfence/platform';
import { Kafka, logLevel } from 'kafkajs';
import { generate } from 'selfsigned';
import { kafkaClientSecurity } from './kafka-client-security';

/** A CA, a broker certificate for localhost it signed, and a client certificate it signed. */
async function certificateAuthority(clientName: string) {
  const ca = await generate([{ name: 'commonName', value: 'ringfence-test-ca' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const signedBy = { key: ca.private, cert: ca.cert };
  const broker = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    ca: signedBy,
    extensions: [
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] },
    ],
  });
  const client = await generate([{ name: 'commonName', value: clientName }], {
    keyType: 'ec',
    algorithm: 'sha256',
    ca: signedBy,
    extensions: [{ name: 'extKeyUsage', clientAuth: true }],
  });
  return { caCert: ca.cert, broker, client };
}

/**
 * A TLS listener that asks for a client certificate, as a broker with mTLS does, and records
 * each handshake. It speaks no Kafka: the client's first request ends the connection, which is
 * enough to prove what the handshake carried.
 */
async function tlsBroker(material: Awaited<ReturnType<typeof certificateAuthority>>) {
  const handshakes: Array<{ authorized: boolean; clientName: string | undefined }> = [];
  const server = createServer({ key: material.broker.private, cert: material.broker.cert, ca: [material.caCert], requestCert: true, rejectUnauthorized: false }, (socket: TLSSocket) => {
    const subject = socket.getPeerCertificate().subject as { CN?: string } | undefined;
    handshakes.push({ authorized: socket.authorized, clientName: subject?.CN });
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, handshakes, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** One connection attempt of a kafkajs client with this configuration; it fails, since the listener speaks no Kafka. */
async function connectOnce(port: number, security: ReturnType<typeof kafkaClientSecurity>): Promise<void> {
  const admin = new Kafka({ brokers: [`localhost:${port}`], clientId: 'tls-spec', connectionTimeout: 2_000, retry: { retries: 0 }, logLevel: logLevel.NOTHING, ...security }).admin();
  await admin.connect().catch(() => undefined);
  await admin.disconnect();
}

describe(kafkaClientSecurity.name, () => {
  let dir: string;
  let material: Awaited<ReturnType<typeof certificateAuthority>>;
  const file = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kafka-tls-'));
    material = await certificateAuthority('ringfence-gateway');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('leaves the client in plaintext and unauthenticated without settings', () => {
    expect(kafkaClientSecurity({})).toEqual({ ssl: undefined, sasl: undefined });
  });

  it("turns TLS on with Node's public roots when no file is given", () => {
    expect(kafkaClientSecurity({ ssl: {} }).ssl).toBe(true);
  });

  it('gives kafkajs the CA bundle and the client certificate and key as read from their files', () => {
    const ssl = { caFile: file('ca.pem', material.caCert), certFile: file('client.pem', material.client.cert), keyFile: file('client.key', material.client.private) };

    expect(kafkaClientSecurity({ ssl }).ssl).toEqual({ ca: [material.caCert], cert: material.client.cert, key: material.client.private });
  });

  it.each(['plain', 'scram-sha-256', 'scram-sha-512'] as const)('gives kafkajs SASL %s with the username and password', (mechanism) => {
    expect(kafkaClientSecurity({ sasl: { mechanism, username: 'ringfence-scoring', password: 'secret-password' } }).sasl).toEqual({
      mechanism,
      username: 'ringfence-scoring',
      password: 'secret-password',
    });
  });

  it('stops the start naming the variable of a file it cannot read', () => {
    expect(() => kafkaClientSecurity({ ssl: { caFile: join(dir, 'missing-ca.pem') } })).toThrow(ConfigError);
    expect(() => kafkaClientSecurity({ ssl: { caFile: join(dir, 'missing-ca.pem') } })).toThrow(/KAFKA_SSL_CA_FILE: cannot read .*missing-ca\.pem \(ENOENT\)/);
  });

  it('stops the start for a file that is not PEM, or a key that is not the certificate\'s', async () => {
    const other = await generate([{ name: 'commonName', value: 'someone-else' }], { keyType: 'ec', algorithm: 'sha256' });

    expect(() => kafkaClientSecurity({ ssl: { caFile: file('not-pem.pem', 'not a certificate') } })).toThrow(/KAFKA_SSL_CA_FILE: not a PEM CA bundle/);
    expect(() => kafkaClientSecurity({ ssl: { caFile: file('broken.pem', '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n') } })).toThrow(
      /KAFKA_SSL_CA_FILE: not a PEM CA bundle/,
    );
    expect(() => kafkaClientSecurity({ ssl: { certFile: file('cert.pem', material.client.cert), keyFile: file('wrong.key', other.private) } })).toThrow(
      /KAFKA_SSL_CERT_FILE, KAFKA_SSL_KEY_FILE: not a PEM certificate and its key/,
    );
  });

  describe('against a TLS listener that asks for a client certificate', () => {
    let broker: Awaited<ReturnType<typeof tlsBroker>>;
    beforeAll(async () => {
      broker = await tlsBroker(material);
    });
    afterAll(() => broker.close());

    it('completes the handshake: the client trusts the broker through the CA file and presents its certificate (mTLS)', async () => {
      const security = kafkaClientSecurity({
        ssl: { caFile: file('ca.pem', material.caCert), certFile: file('client.pem', material.client.cert), keyFile: file('client.key', material.client.private) },
      });
      const before = broker.handshakes.length;

      await connectOnce(broker.port, security);

      expect(broker.handshakes.slice(before)).toEqual([{ authorized: true, clientName: 'ringfence-gateway' }]);
    }, 20_000);

    it("refuses a broker whose certificate the CA file does not vouch for (Node's check stays on)", async () => {
      const stranger = await certificateAuthority('ringfence-gateway');
      const security = kafkaClientSecurity({ ssl: { caFile: file('stranger-ca.pem', stranger.caCert) } });
      const before = broker.handshakes.length;

      await connectOnce(broker.port, security);

      expect(broker.handshakes.slice(before)).toEqual([]);
    }, 20_000);
  });
});
