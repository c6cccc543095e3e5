import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createSecureContext } from 'node:tls';
import { ConfigError, type KafkaSecuritySettings } from '@ringfence/platform';
import type { KafkaConfig, SASLOptions } from 'kafkajs';

export type KafkaClientSecurity = Pick<KafkaConfig, 'ssl' | 'sasl'>;

type ReadFile = (path: string) => string;
const readUtf8: ReadFile = (path) => readFileSync(path, 'utf8');

/**
 * The one place the Kafka settings (KAFKA_SSL*, KAFKA_SASL_*; ADR-0016) become kafkajs's
 * client configuration. Reads the PEM files and builds a TLS context from them once, at start,
 * so an unreadable file, a file that is not PEM or a key that is not the certificate's stops
 * the start naming the variable, instead of failing every connection later. kafkajs keeps
 * Node's certificate checks (`rejectUnauthorized` is never turned off).
 */
export function kafkaClientSecurity(settings: KafkaSecuritySettings, readFile: ReadFile = readUtf8): KafkaClientSecurity {
  return { ssl: settings.ssl && tlsOptions(settings.ssl, readFile), sasl: settings.sasl && saslOptions(settings.sasl) };
}

function tlsOptions(ssl: NonNullable<KafkaSecuritySettings['ssl']>, readFile: ReadFile): KafkaConfig['ssl'] {
  if (!ssl.caFile && !ssl.certFile) return true;
  const ca = ssl.caFile ? read('KAFKA_SSL_CA_FILE', ssl.caFile, readFile) : undefined;
  const cert = ssl.certFile ? read('KAFKA_SSL_CERT_FILE', ssl.certFile, readFile) : undefined;
  const key = ssl.keyFile ? read('KAFKA_SSL_KEY_FILE', ssl.keyFile, readFile) : undefined;
  if (ca !== undefined) checkCertificates('KAFKA_SSL_CA_FILE', ca);
  if (cert !== undefined && key !== undefined) {
    try {
      createSecureContext({ cert, key });
    } catch (error: unknown) {
      // OpenSSL's reason (no start line, key values mismatch) says what is wrong; no file content is in it.
      throw new ConfigError([`KAFKA_SSL_CERT_FILE, KAFKA_SSL_KEY_FILE: not a PEM certificate and its key (${error instanceof Error ? error.message : String(error)})`]);
    }
  }
  return { ...(ca && { ca: [ca] }), ...(cert && { cert }), ...(key && { key }) };
}

/** Node ignores what in a CA bundle is not a certificate; a bundle with none would trust nothing and fail every connection. */
function checkCertificates(variable: string, bundle: string): void {
  const certificates = bundle.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  try {
    if (certificates.length === 0) throw new Error('no PEM certificate in it');
    for (const certificate of certificates) new X509Certificate(certificate);
  } catch (error: unknown) {
    throw new ConfigError([`${variable}: not a PEM CA bundle (${error instanceof Error ? error.message : String(error)})`]);
  }
}

function read(variable: string, path: string, readFile: ReadFile): string {
  try {
    return readFile(path);
  } catch (error: unknown) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new ConfigError([`${variable}: cannot read ${path} (${code})`]);
  }
}

function saslOptions(sasl: NonNullable<KafkaSecuritySettings['sasl']>): SASLOptions {
  // One branch per mechanism: kafkajs types each mechanism's options apart.
  switch (sasl.mechanism) {
    case 'plain':
      return { mechanism: 'plain', username: sasl.username, password: sasl.password };
    case 'scram-sha-256':
      return { mechanism: 'scram-sha-256', username: sasl.username, password: sasl.password };
    case 'scram-sha-512':
      return { mechanism: 'scram-sha-512', username: sasl.username, password: sasl.password };
  }
}
