import { ConfigError, loadConfig } from './ringfence-config';

const load = (env: Record<string, string>) => loadConfig(env, { port: 8080 });
const BROKERS = { KAFKA_BROKERS: 'kafka-0:9093,kafka-1:9093' };
const PASSWORD = 'kafka-password-never-echoed-7f3a';

/** The configuration of ADR-0016, "Inside the cluster": Kafka's TLS and SASL, the internal credential. */
describe('loadConfig: inside the cluster', () => {
  describe('Kafka TLS and SASL', () => {
    it('connects in plaintext without authentication by default', () => {
      expect(load(BROKERS).kafkaSecurity).toEqual({});
      expect(load({ ...BROKERS, KAFKA_SSL: 'false' }).kafkaSecurity).toEqual({});
    });

    it('reads TLS with the public roots, with a CA bundle, and with a client certificate (mTLS)', () => {
      expect(load({ ...BROKERS, KAFKA_SSL: 'true' }).kafkaSecurity).toEqual({ ssl: { caFile: undefined, certFile: undefined, keyFile: undefined } });
      expect(
        load({ ...BROKERS, KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: '/etc/kafka/ca.pem', KAFKA_SSL_CERT_FILE: '/etc/kafka/client.pem', KAFKA_SSL_KEY_FILE: '/etc/kafka/client.key' })
          .kafkaSecurity,
      ).toEqual({ ssl: { caFile: '/etc/kafka/ca.pem', certFile: '/etc/kafka/client.pem', keyFile: '/etc/kafka/client.key' } });
    });

    it.each(['scram-sha-256', 'scram-sha-512', 'SCRAM-SHA-512'])('reads SASL %s, with or without TLS', (mechanism) => {
      const sasl = { KAFKA_SASL_MECHANISM: mechanism, KAFKA_SASL_USERNAME: 'ringfence-gateway', KAFKA_SASL_PASSWORD: PASSWORD };

      expect(load({ ...BROKERS, ...sasl }).kafkaSecurity).toEqual({ sasl: { mechanism: mechanism.toLowerCase(), username: 'ringfence-gateway', password: PASSWORD } });
      expect(load({ ...BROKERS, ...sasl, KAFKA_SSL: 'true' }).kafkaSecurity.ssl).toBeDefined();
    });

    it('reads SASL plain over TLS', () => {
      const config = load({ ...BROKERS, KAFKA_SSL: 'true', KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: PASSWORD });

      expect(config.kafkaSecurity.sasl).toEqual({ mechanism: 'plain', username: 'u', password: PASSWORD });
    });

    it.each([
      ['KAFKA_SSL is not a boolean', { KAFKA_SSL: 'yes' }, /KAFKA_SSL must be true or false \(got "yes"\)/],
      ['a CA file without KAFKA_SSL', { KAFKA_SSL_CA_FILE: '/ca.pem' }, /KAFKA_SSL_CA_FILE needs KAFKA_SSL=true/],
      ['a client certificate without its key', { KAFKA_SSL: 'true', KAFKA_SSL_CERT_FILE: '/c.pem' }, /KAFKA_SSL_CERT_FILE and KAFKA_SSL_KEY_FILE must be set together/],
      ['a client key without its certificate', { KAFKA_SSL: 'true', KAFKA_SSL_KEY_FILE: '/c.key' }, /KAFKA_SSL_CERT_FILE and KAFKA_SSL_KEY_FILE must be set together/],
      ['an unknown mechanism', { KAFKA_SASL_MECHANISM: 'gssapi', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: PASSWORD }, /KAFKA_SASL_MECHANISM must be one of plain, scram-sha-256, scram-sha-512/],
      ['a mechanism without a password', { KAFKA_SASL_MECHANISM: 'scram-sha-512', KAFKA_SASL_USERNAME: 'u' }, /KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD must be set/],
      ['credentials without a mechanism', { KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: PASSWORD }, /KAFKA_SASL_PASSWORD needs KAFKA_SASL_MECHANISM/],
      ['plain without TLS', { KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: PASSWORD }, /plain sends the password in clear text: set KAFKA_SSL=true/],
    ])('stops the start naming the variable for %s, never echoing the password', (_case, env, message) => {
      const attempt = () => load({ ...BROKERS, ...env });

      expect(attempt).toThrow(ConfigError);
      expect(attempt).toThrow(message);
      expect(() => attempt()).not.toThrow(new RegExp(PASSWORD));
    });

    it('refuses Kafka security settings without KAFKA_BROKERS (they would be ignored)', () => {
      expect(() => load({ KAFKA_SSL: 'true', KAFKA_SASL_MECHANISM: 'scram-sha-512', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: PASSWORD })).toThrow(
        /KAFKA_SSL, KAFKA_SASL_MECHANISM, KAFKA_SASL_USERNAME, KAFKA_SASL_PASSWORD need KAFKA_BROKERS/,
      );
    });

    it('lists Kafka problems together with the other variables\' problems', () => {
      expect(() => load({ ...BROKERS, PORT: 'abc', KAFKA_SSL: 'maybe' })).toThrow(/PORT.*; KAFKA_SSL must be true or false/);
    });
  });

  describe('INTERNAL_API_KEY', () => {
    const INTERNAL = 'internal-credential-0123456789abcdef';
    const ADMIN = 'admin-token-0123456789abcdef';

    it('is read when set, and unset by default', () => {
      expect(load({}).internalApiKey).toBeUndefined();
      expect(load({ INTERNAL_API_KEY: INTERNAL }).internalApiKey).toBe(INTERNAL);
    });

    it('is required with LOOKUP_URL: the gateway authenticates to the lookup service with it, not with the admin token', () => {
      expect(() => load({ LOOKUP_URL: 'http://lookup:8080', ADMIN_API_KEY: ADMIN })).toThrow(/INTERNAL_API_KEY must be set with LOOKUP_URL/);
      expect(load({ LOOKUP_URL: 'http://lookup:8080', INTERNAL_API_KEY: INTERNAL }).internalApiKey).toBe(INTERNAL);
    });

    it('is at least 32 characters, and never echoed', () => {
      const short = 'internal-but-31-characters-long';
      expect(() => load({ INTERNAL_API_KEY: short })).toThrow(/INTERNAL_API_KEY must be at least 32 characters/);
      expect(() => load({ INTERNAL_API_KEY: short })).not.toThrow(new RegExp(short));
    });

    it('is its own secret, not the admin token', () => {
      expect(() => load({ INTERNAL_API_KEY: INTERNAL, ADMIN_API_KEY: INTERNAL })).toThrow(/INTERNAL_API_KEY must differ from ADMIN_API_KEY/);
    });
  });
});
