export const KAFKA_SASL_MECHANISMS = ['plain', 'scram-sha-256', 'scram-sha-512'] as const;
export type KafkaSaslMechanism = (typeof KAFKA_SASL_MECHANISMS)[number];

/**
 * How the Kafka clients reach the brokers (ADR-0016, "Inside the cluster"): TLS, with the
 * operator's CA and optionally a client certificate (mTLS), and SASL. File paths, not contents:
 * the bus reads and checks the files when it is created (`kafkaClientSecurity` in
 * `@ringfence/bus`), so a missing or malformed file stops the start naming its variable.
 */
export interface KafkaSecuritySettings {
  /** Present: TLS to every broker, the broker's certificate verified (never optional). */
  ssl?: {
    /** PEM bundle of the CAs trusted for the brokers' certificates; unset: Node's public roots. */
    caFile?: string;
    /** PEM client certificate and its key, for brokers that authenticate clients by certificate. */
    certFile?: string;
    keyFile?: string;
  };
  sasl?: { mechanism: KafkaSaslMechanism; username: string; password: string };
}

type Environment = Readonly<Record<string, string | undefined>>;

const FILE_VARIABLES = ['KAFKA_SSL_CA_FILE', 'KAFKA_SSL_CERT_FILE', 'KAFKA_SSL_KEY_FILE'] as const;
const SASL_VARIABLES = ['KAFKA_SASL_MECHANISM', 'KAFKA_SASL_USERNAME', 'KAFKA_SASL_PASSWORD'] as const;

/**
 * Reads the KAFKA_SSL* and KAFKA_SASL_* variables (unset and empty alike) and checks them
 * together: each problem names its variable and never repeats the password. Used by
 * `loadConfig`, whose error lists these problems with the others.
 */
export function readKafkaSecurity(env: Environment): { settings: KafkaSecuritySettings; problems: string[] } {
  const value = (name: string) => {
    const raw = env[name]?.trim();
    return raw === undefined || raw === '' ? undefined : raw;
  };
  const problems: string[] = [];
  const settings: KafkaSecuritySettings = {};

  const ssl = value('KAFKA_SSL');
  if (ssl !== undefined && ssl !== 'true' && ssl !== 'false') problems.push(`KAFKA_SSL must be true or false (got ${JSON.stringify(ssl)})`);
  const [caFile, certFile, keyFile] = FILE_VARIABLES.map(value);
  if (ssl === 'true') {
    if ((certFile === undefined) !== (keyFile === undefined)) problems.push('KAFKA_SSL_CERT_FILE and KAFKA_SSL_KEY_FILE must be set together');
    settings.ssl = { caFile, certFile, keyFile };
  } else {
    // A CA or a client certificate without TLS would be ignored: say so rather than connect in clear.
    for (const name of FILE_VARIABLES) if (value(name) !== undefined) problems.push(`${name} needs KAFKA_SSL=true`);
  }

  const [mechanism, username, password] = SASL_VARIABLES.map(value);
  if (mechanism === undefined) {
    for (const name of ['KAFKA_SASL_USERNAME', 'KAFKA_SASL_PASSWORD']) if (value(name) !== undefined) problems.push(`${name} needs KAFKA_SASL_MECHANISM`);
  } else if (!(KAFKA_SASL_MECHANISMS as readonly string[]).includes(mechanism.toLowerCase())) {
    problems.push(`KAFKA_SASL_MECHANISM must be one of ${KAFKA_SASL_MECHANISMS.join(', ')} (got ${JSON.stringify(mechanism)})`);
  } else if (username === undefined || password === undefined) {
    problems.push('KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD must be set with KAFKA_SASL_MECHANISM');
  } else if (mechanism.toLowerCase() === 'plain' && ssl !== 'true') {
    // PLAIN sends the password as it is; SCRAM never sends it.
    problems.push('KAFKA_SASL_MECHANISM=plain sends the password in clear text: set KAFKA_SSL=true, or use scram-sha-512');
  } else {
    settings.sasl = { mechanism: mechanism.toLowerCase() as KafkaSaslMechanism, username, password };
  }

  const configured = ['KAFKA_SSL', ...FILE_VARIABLES, ...SASL_VARIABLES].filter((name) => value(name) !== undefined && !(name === 'KAFKA_SSL' && ssl === 'false'));
  if (configured.length > 0 && value('KAFKA_BROKERS') === undefined) problems.push(`${configured.join(', ')} need KAFKA_BROKERS`);
  return { settings, problems };
}
