import { ConfigError, loadConfig } from './ringfence-config';

describe(loadConfig.name, () => {
  const load = (env: Record<string, string>) => loadConfig(env, { port: 8443 });

  it('applies the documented defaults', () => {
    const config = load({});
    expect(config).toMatchObject({ port: 8443, dataDir: './data', logLevel: 'info', bodyLimitBytes: 1048576 });
    expect(config.databaseUrl).toBeUndefined();
    expect(config.kafkaBrokers).toBeUndefined();
  });

  it('binds every port to HOST: 0.0.0.0 by default, or the address or host name given', () => {
    expect(load({}).host).toBe('0.0.0.0');
    for (const host of ['127.0.0.1', '::1', '::', 'localhost', 'ringfence-gateway.internal']) expect(load({ HOST: host }).host).toBe(host);
    expect(() => load({ HOST: 'not a host' })).toThrow(/HOST must be an IP address or a host name/);
  });

  it('reads the distributed-mode variables', () => {
    const config = load({ DATABASE_URL: 'postgres://u@db:5432/x', KAFKA_BROKERS: 'k1:9092,k2:9092', PORT: '9000' });
    expect(config.kafkaBrokers).toEqual(['k1:9092', 'k2:9092']);
    expect(config.port).toBe(9000);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['HTTP_PORT', '0'],
    ['KAFKA_BROKERS', 'no-port'],
    ['DATABASE_URL', 'mysql://x'],
    ['LOG_LEVEL', 'loud'],
    ['BOOTSTRAP_API_KEY', 'pk_test_abcdefghijklmnop'],
    ['ADMIN_API_KEY', 'short'],
    ['TLS_CERT_FILE', '/only/the/cert.pem'],
    ['CALLBACK_RETRY_BASE_MS', '0'],
    ['CALLBACK_RETRY_BASE_MS', '1.5'],
    ['CALLBACK_RETRY_BASE_MS', '3600001'],
    ['MEMORY_CACHE_ENTRIES', '999'],
    ['MEMORY_CACHE_ENTRIES', 'lots'],
    ['VELOCITY_MAX_KEYS', '100000001'],
    ['GRAPH_MAX_NODES', '999'],
    ['ACCOUNT_SHARE_PERCENT', '0'],
    ['ACCOUNT_SHARE_PERCENT', '101'],
    ['MAX_CONCURRENT_TRAININGS', '0'],
    ['TRAINING_MAX_SECONDS', '0'],
    ['TRAINING_MAX_EXAMPLES', '999'],
    ['RULE_BUDGET_MS', '0'],
    ['RULE_BUDGET_MS', '0.5'],
    ['CHECKPOINT_RULES_BUDGET_MS', '10001'],
    ['BACKTEST_MAX_DECISIONS', '0'],
    ['CALLBACK_ALLOWED_NETWORKS', '10.0.0.0/8,internal.example'],
    ['CALLBACK_ALLOWED_NETWORKS', '10.0.0.0/33'],
    ['TRUSTED_PROXIES', '10.0.0.0/8,proxy.internal'],
  ])('names %s when it is %s', (variable, value) => {
    expect(() => load({ [variable]: value })).toThrow(ConfigError);
    expect(() => load({ [variable]: value })).toThrow(new RegExp(variable));
  });

  it('reads the trusted proxies: none by default, a CIDR list when set', () => {
    expect(load({}).trustedProxies).toEqual([]);
    expect(load({ TRUSTED_PROXIES: ' 10.0.0.0/8, 127.0.0.1/32 ' }).trustedProxies).toEqual(['10.0.0.0/8', '127.0.0.1/32']);
  });

  it('reads the review callbacks\' retry base: 10 s by default, smaller for tests', () => {
    expect(load({}).callbackRetryBaseMs).toBe(10_000);
    expect(load({ CALLBACK_RETRY_BASE_MS: '50' }).callbackRetryBaseMs).toBe(50);
  });

  it("reads the review callbacks' allowed networks: none by default, each CIDR range of the comma list", () => {
    expect(load({}).callbackAllowedNetworks).toEqual([]);
    expect(load({ CALLBACK_ALLOWED_NETWORKS: ' 10.20.0.0/16, fd00::/8 ' }).callbackAllowedNetworks).toEqual(['10.20.0.0/16', 'fd00::/8']);
    expect(() => load({ CALLBACK_ALLOWED_NETWORKS: '10.0.0.0/8, intranet' })).toThrow(/CALLBACK_ALLOWED_NETWORKS must be a comma list of CIDR ranges .*"intranet" is not one/);
  });

  it('reads the bounds of the in-memory state: 200,000 cache entries and 2,000,000 velocity keys by default', () => {
    expect(load({})).toMatchObject({ memoryCacheEntries: 200_000, velocityMaxKeys: 2_000_000 });
    expect(load({ MEMORY_CACHE_ENTRIES: '50000', VELOCITY_MAX_KEYS: '500000' })).toMatchObject({ memoryCacheEntries: 50_000, velocityMaxKeys: 500_000 });
  });

  it("reads the tenants' fair shares (ADR-0016): 10,000,000 graph nodes, 25 % of each bound per account, one training at a time for 15 minutes and 1,000,000 examples at most", () => {
    expect(load({})).toMatchObject({ graphMaxNodes: 10_000_000, accountSharePercent: 25, maxConcurrentTrainings: 1, trainingMaxSeconds: 900, trainingMaxExamples: 1_000_000 });
    expect(load({ GRAPH_MAX_NODES: '50000' }).graphMaxNodes).toBe(50_000);
    expect(load({ ACCOUNT_SHARE_PERCENT: '100', MAX_CONCURRENT_TRAININGS: '2', TRAINING_MAX_SECONDS: '60', TRAINING_MAX_EXAMPLES: '5000' })).toMatchObject({
      accountSharePercent: 100,
      maxConcurrentTrainings: 2,
      trainingMaxSeconds: 60,
      trainingMaxExamples: 5_000,
    });
  });

  it('reads the rules\' budgets and the backtests\' bound (ADR-0016): 1 ms per rule, 25 ms per checkpoint, 100,000 decisions by default', () => {
    expect(load({})).toMatchObject({ ruleBudgetMs: 1, checkpointRulesBudgetMs: 25, backtestMaxDecisions: 100_000 });
    expect(load({ RULE_BUDGET_MS: '3', CHECKPOINT_RULES_BUDGET_MS: '60', BACKTEST_MAX_DECISIONS: '20' })).toMatchObject({ ruleBudgetMs: 3, checkpointRulesBudgetMs: 60, backtestMaxDecisions: 20 });
  });

  it('reads the console sessions\' absolute expiry (issue 37): 12 hours by default, at most 30 days', () => {
    expect(load({})).toMatchObject({ sessionTtlSeconds: 43_200 });
    expect(load({ SESSION_TTL_SECONDS: '2' })).toMatchObject({ sessionTtlSeconds: 2 });
    expect(() => load({ SESSION_TTL_SECONDS: '0' })).toThrow(/SESSION_TTL_SECONDS/);
    expect(() => load({ SESSION_TTL_SECONDS: String(31 * 86_400) })).toThrow(/SESSION_TTL_SECONDS/);
  });

  it('never echoes a secret value in the error', () => {
    expect(() => load({ ADMIN_API_KEY: 'hunter2' })).toThrow(/^(?!.*hunter2)/s);
  });

  it('echoes a value that is not a secret', () => {
    expect(() => load({ VELOCITY_MAX_KEYS: '12' })).toThrow(/VELOCITY_MAX_KEYS must not be less than 1000 \(got 12\)/);
  });
});
