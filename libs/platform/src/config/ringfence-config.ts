import { Transform, plainToInstance } from 'class-transformer';
import { IsCidrList, cidrListEntries } from './cidr-list';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
  type ValidationError,
  validateSync,
} from 'class-validator';
import { type KafkaSecuritySettings, readKafkaSecurity } from './kafka-security-settings';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const toInt = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value.trim()) : value;
const emptyToUndefined = ({ value }: { value: unknown }) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/**
 * The operator interface (ADR-0003). Every variable is read and checked here once, at
 * start; an invalid value stops the process with a message naming the variable.
 */
class EnvironmentVariables {
  // 0 asks the OS for a free port (tests); the address is logged at start.
  @Transform(toInt) @IsInt() @Min(0) @Max(65535) PORT!: number;

  @Transform(emptyToUndefined) @Transform(toInt) @IsOptional() @IsInt() @Min(1) @Max(65535) HTTP_PORT?: number;

  // The address PORT and HTTP_PORT bind: an IP address (0.0.0.0 every IPv4 interface, :: every interface) or a host name.
  @Matches(/^(?:[0-9A-Fa-f:.]+|[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252}))$/, { message: 'HOST must be an IP address or a host name' })
  HOST!: string;

  @Transform(emptyToUndefined) @ValidateIf((env: EnvironmentVariables) => env.TLS_KEY_FILE !== undefined || env.TLS_CERT_FILE !== undefined)
  @IsString({ message: 'TLS_CERT_FILE and TLS_KEY_FILE must be set together' })
  TLS_CERT_FILE?: string;

  @Transform(emptyToUndefined) @ValidateIf((env: EnvironmentVariables) => env.TLS_KEY_FILE !== undefined || env.TLS_CERT_FILE !== undefined)
  @IsString({ message: 'TLS_CERT_FILE and TLS_KEY_FILE must be set together' })
  TLS_KEY_FILE?: string;

  @IsString() @MinLength(1) DATA_DIR!: string;

  @Transform(emptyToUndefined) @IsOptional() @Matches(/^postgres(ql)?:\/\/.+/, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL?: string;

  @Transform(emptyToUndefined) @IsOptional()
  @Matches(/^[^\s,:]+:\d{1,5}(,[^\s,:]+:\d{1,5})*$/, { message: 'KAFKA_BROKERS must be a comma list of host:port' })
  KAFKA_BROKERS?: string;

  @Transform(emptyToUndefined) @IsOptional()
  @Matches(/^(bolt|neo4j)(\+s|\+ssc)?:\/\/.+/, { message: 'NEO4J_URL must be a bolt:// or neo4j:// URL' })
  NEO4J_URL?: string;

  @Transform(emptyToUndefined) @IsOptional() @IsString() NEO4J_USER?: string;
  @Transform(emptyToUndefined) @IsOptional() @IsString() NEO4J_PASSWORD?: string;

  @Transform(emptyToUndefined) @IsOptional()
  @Matches(/^(sk|secret_key)_test_[A-Za-z0-9_-]{16,200}$/, {
    message: 'BOOTSTRAP_API_KEY must be a sandbox secret key: sk_test_ followed by at least 16 characters',
  })
  BOOTSTRAP_API_KEY?: string;

  @Transform(emptyToUndefined) @IsOptional() @IsString() @MinLength(24, { message: 'ADMIN_API_KEY must be at least 24 characters' }) @MaxLength(512)
  ADMIN_API_KEY?: string;

  // ADR-0016: the gateway's own credential to the services' internal routes, never the
  // admin token. A gateway that asks the lookup service (LOOKUP_URL) cannot do without it.
  @Transform(emptyToUndefined) @ValidateIf((env: EnvironmentVariables) => env.INTERNAL_API_KEY !== undefined || env.LOOKUP_URL !== undefined)
  @MinLength(32, { message: 'INTERNAL_API_KEY must be at least 32 characters' }) @MaxLength(512)
  @IsString({ message: 'INTERNAL_API_KEY must be set with LOOKUP_URL: the gateway authenticates to the lookup service with it' })
  INTERNAL_API_KEY?: string;

  // The HMAC key of usernames in the breached-credentials store (docs/credentials.md).
  @Transform(emptyToUndefined) @IsOptional() @IsString() @MinLength(32, { message: 'CREDENTIALS_KEY must be at least 32 characters' }) @MaxLength(512)
  CREDENTIALS_KEY?: string;

  // The distributed gateway asks the lookup service's store at this URL (its internal HTTP port).
  @Transform(emptyToUndefined) @IsOptional() @Matches(/^https?:\/\/[^\s]+$/, { message: 'LOOKUP_URL must be an http:// or https:// URL' })
  LOOKUP_URL?: string;

  @IsIn(LOG_LEVELS, { message: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` }) LOG_LEVEL!: LogLevel;

  @Transform(toInt) @IsInt() @Min(1024) @Max(64 * 1024 * 1024) BODY_LIMIT_BYTES!: number;

  @Transform(toInt) @IsInt() @Min(10) @Max(60_000) RPC_TIMEOUT_MS!: number;

  @Transform(toInt) @IsInt() @Min(10) @Max(60_000) REQUEST_TIMEOUT_MS!: number;

  @Transform(toInt) @IsInt() @Min(0) @Max(60_000) MAX_EVENT_LOOP_DELAY_MS!: number;

  @Transform(toInt) @IsInt() @Min(0) @Max(1_000_000) MAX_IN_FLIGHT_REQUESTS!: number;

  @Transform(toInt) @IsInt() @Min(0) @Max(1_000_000) MAX_UNAUTHENTICATED_IN_FLIGHT_REQUESTS!: number;

  @Transform(toInt) @IsInt() @Min(1) @Max(1_000_000) MAX_UNAUTHENTICATED_IN_FLIGHT_PER_ADDRESS!: number;

  @Transform(toInt) @IsInt() @Min(100) @Max(300_000) HEADERS_TIMEOUT_MS!: number;

  @Transform(toInt) @IsInt() @Min(100) @Max(300_000) BODY_TIMEOUT_MS!: number;

  @Transform(toInt) @IsInt() @Min(1) @Max(10_000) KAFKA_CONSUMER_MAX_WAIT_MS!: number;

  @Transform(toInt) @IsInt() @Min(1) ACCOUNT_RATE_LIMIT_PER_MINUTE!: number;

  @Transform(toInt) @IsInt() @Min(1) CUSTOMER_RATE_LIMIT_PER_MINUTE!: number;

  @Transform(toInt) @IsInt() @Min(1) @Max(3_600_000) CALLBACK_RETRY_BASE_MS!: number;

  @Transform(emptyToUndefined) @IsOptional() @IsCidrList() CALLBACK_ALLOWED_NETWORKS?: string;

  @Transform(emptyToUndefined) @IsOptional() @IsCidrList() TRUSTED_PROXIES?: string;

  @Transform(toInt) @IsInt() @Min(1_000) @Max(100_000_000) MEMORY_CACHE_ENTRIES!: number;

  @Transform(toInt) @IsInt() @Min(1_000) @Max(100_000_000) VELOCITY_MAX_KEYS!: number;

  @Transform(toInt) @IsInt() @Min(1_000) @Max(1_000_000_000) GRAPH_MAX_NODES!: number;

  @Transform(toInt) @IsInt() @Min(1) @Max(100) ACCOUNT_SHARE_PERCENT!: number;

  @Transform(toInt) @IsInt() @Min(1) @Max(64) MAX_CONCURRENT_TRAININGS!: number;

  @Transform(toInt) @IsInt() @Min(1) @Max(86_400) TRAINING_MAX_SECONDS!: number;

  @Transform(toInt) @IsInt() @Min(1_000) @Max(100_000_000) TRAINING_MAX_EXAMPLES!: number;

  @Transform(toInt) @IsInt() @Min(1) @Max(1_000) RULE_BUDGET_MS!: number;

  @Transform(toInt) @IsInt() @Min(1) @Max(10_000) CHECKPOINT_RULES_BUDGET_MS!: number;

  @Transform(toInt) @IsInt() @Min(1) @Max(100_000_000) BACKTEST_MAX_DECISIONS!: number;

  @Transform(toInt) @IsInt() @Min(1) @Max(30 * 86_400) SESSION_TTL_SECONDS!: number;
}

export interface RingfenceConfig {
  /** The address every port of the app binds (HOST; 0.0.0.0, every IPv4 interface, by default). */
  host: string;
  port: number;
  httpPort?: number;
  tls?: { certFile: string; keyFile: string };
  dataDir: string;
  databaseUrl?: string;
  kafkaBrokers?: string[];
  /** TLS and SASL of the Kafka clients (KAFKA_SSL*, KAFKA_SASL_*); empty: plaintext, unauthenticated. */
  kafkaSecurity: KafkaSecuritySettings;
  /**
   * How long a Kafka fetch may wait for data. A real broker answers as soon as data arrives;
   * brokers that always wait the full time (the test mock) need it small.
   */
  kafkaConsumerMaxWaitMs: number;
  neo4j?: { url: string; user: string; password: string };
  bootstrapApiKey?: string;
  adminApiKey?: string;
  /**
   * The credential services' internal routes accept (`@InternalRoute()`) and the gateway sends
   * them (ADR-0016); unset: those routes answer 403.
   */
  internalApiKey?: string;
  /** Unset: generated into DATA_DIR/credentials-key (mode 0600) by the process holding the store. */
  credentialsKey?: string;
  /** Set on a distributed gateway: the breached-credentials store is the lookup service's, there. */
  lookupUrl?: string;
  logLevel: LogLevel;
  bodyLimitBytes: number;
  /**
   * The checkpoints' budget: how long a checkpoint (and connect statistics, the voucher check)
   * waits for its answer before answering without it (degraded) or 503.
   */
  rpcTimeoutMs: number;
  /**
   * How long label and lookup requests wait for their service. Not a checkpoint budget: a
   * review or report under load is better answered late than refused after it was stored.
   */
  requestTimeoutMs: number;
  /**
   * Load shedding: while the event loop's mean delay over the last 200 ms exceeds this, new API
   * requests get 503 (nothing accepted, `Retry-After: 1`) before their body is read. 0 (the
   * default) turns it off.
   */
  maxEventLoopDelayMs: number;
  /**
   * Load shedding: API requests with a valid credential (a secret key, the admin token) in the
   * process at once; past it, 503 before the body is read. 0 turns it off.
   */
  maxInFlightRequests: number;
  /**
   * ADR-0016: requests without a valid credential have a budget of their own, so keyless
   * traffic never takes the authenticated requests' capacity; past it, 503 before the body is
   * read. 0 turns it off.
   */
  maxUnauthenticatedInFlightRequests: number;
  /** One client address's share of `maxUnauthenticatedInFlightRequests` (an IPv6 address counts by its /64). */
  maxUnauthenticatedInFlightPerAddress: number;
  /**
   * ADR-0016, slow clients: a connection's TLS handshake and a request's headers must
   * arrive within this (else the connection is closed, with 408 once HTTP has begun).
   */
  headersTimeoutMs: number;
  /** ADR-0016, slow clients: the body must be complete within this once the headers are in (408 and the connection closed). */
  bodyTimeoutMs: number;
  accountRateLimitPerMinute: number;
  customerRateLimitPerMinute: number;
  /**
   * Review callbacks: the delay after a delivery's first failed attempt, doubled after each
   * further failure (capped at an hour, with jitter). Small in tests, so retries are seen quickly.
   */
  callbackRetryBaseMs: number;
  /**
   * ADR-0016: CIDR ranges review callbacks may reach although they are not public (internal
   * receivers), and the only ones plain http may go to; none by default.
   */
  callbackAllowedNetworks: string[];
  /**
   * CIDR ranges of the reverse proxies whose `X-Forwarded-For` names the client: a request from
   * one of them is the client's at the address the header gives (the rightmost one not itself a
   * trusted proxy). None by default: the connection's address, the header never read.
   */
  trustedProxies: string[];
  /**
   * The embedded mode's bounded state (README, "Memory of a standalone server"): entity
   * documents, labelled subjects' current labels and reported indicators' evidence counts, each
   * holds at most this many (least recently used go first; the rest is read when asked about).
   */
  memoryCacheEntries: number;
  /** Scoring's velocity counters hold at most this many keys (least recently recorded go first). */
  velocityMaxKeys: number;
  /**
   * The graph's in-memory index holds at most this many nodes over every account (it is not a
   * cache: past it, a change that would add a node is left out, nothing is evicted).
   */
  graphMaxNodes: number;
  /**
   * Tenants share fairly (ADR-0016): the part of every shared bound (velocity keys, the
   * graph's index, the caches of `memoryCacheEntries`) one account may hold, both its data sets
   * together, in percent. Past it the account's new data is refused with 429; nothing of another
   * account's is evicted.
   */
  accountSharePercent: number;
  /** Model trainings running at once in a scoring process, over every account (one per account at most). */
  maxConcurrentTrainings: number;
  /** A training still running after this long is stopped and marked failed. */
  trainingMaxSeconds: number;
  /** A training whose period holds more decisions than this is stopped and marked failed (train on a shorter period). */
  trainingMaxExamples: number;
  /**
   * ADR-0016, rules on a budget: one rule's evaluation may take this long (an overrun is
   * confirmed by a second evaluation before the rule counts as failing).
   */
  ruleBudgetMs: number;
  /** ADR-0016: all the rules of one checkpoint together; past it the remaining rules are not evaluated. */
  checkpointRulesBudgetMs: number;
  /** ADR-0016: a backtest over a range holding more decisions of its checkpoint than this is a 400 naming `from`. */
  backtestMaxDecisions: number;
  /** Issue 37: a console session ends this long after sign-in, whatever happens (absolute expiry). */
  sessionTtlSeconds: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

export interface ConfigDefaults {
  /** 8443 for the gateway (HTTPS), 8080 for the workers' ops endpoints. */
  port: number;
}

const describeValue = (value: unknown) => (value === undefined ? 'unset' : JSON.stringify(value));

/** The value of each variable left unset (PORT's is the app's, `ConfigDefaults`). */
const DEFAULT_ENVIRONMENT = {
  HOST: '0.0.0.0',
  DATA_DIR: './data',
  LOG_LEVEL: 'info',
  BODY_LIMIT_BYTES: String(1024 * 1024),
  RPC_TIMEOUT_MS: '500',
  REQUEST_TIMEOUT_MS: '5000',
  MAX_EVENT_LOOP_DELAY_MS: '0',
  MAX_IN_FLIGHT_REQUESTS: '256',
  MAX_UNAUTHENTICATED_IN_FLIGHT_REQUESTS: '32',
  MAX_UNAUTHENTICATED_IN_FLIGHT_PER_ADDRESS: '8',
  HEADERS_TIMEOUT_MS: '10000',
  BODY_TIMEOUT_MS: '10000',
  KAFKA_CONSUMER_MAX_WAIT_MS: '100',
  ACCOUNT_RATE_LIMIT_PER_MINUTE: '60000',
  CUSTOMER_RATE_LIMIT_PER_MINUTE: '50',
  CALLBACK_RETRY_BASE_MS: '10000',
  MEMORY_CACHE_ENTRIES: '200000',
  VELOCITY_MAX_KEYS: '2000000',
  GRAPH_MAX_NODES: '10000000',
  ACCOUNT_SHARE_PERCENT: '25',
  MAX_CONCURRENT_TRAININGS: '1',
  TRAINING_MAX_SECONDS: '900',
  TRAINING_MAX_EXAMPLES: '1000000',
  RULE_BUDGET_MS: '1',
  CHECKPOINT_RULES_BUDGET_MS: '25',
  BACKTEST_MAX_DECISIONS: '100000',
  SESSION_TTL_SECONDS: '43200',
} as const;

/** Reads and checks the environment; throws `ConfigError` naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv, defaults: ConfigDefaults): RingfenceConfig {
  const withDefaults = {
    PORT: String(defaults.port),
    ...DEFAULT_ENVIRONMENT,
    ...Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== '')),
  };
  const parsed = plainToInstance(EnvironmentVariables, withDefaults);
  const kafkaSecurity = readKafkaSecurity(withDefaults);
  const problems = [
    ...validateSync(parsed, { forbidUnknownValues: false }).map(problemOf),
    ...kafkaSecurity.problems,
    ...(parsed.INTERNAL_API_KEY !== undefined && parsed.INTERNAL_API_KEY === parsed.ADMIN_API_KEY ? ['INTERNAL_API_KEY must differ from ADMIN_API_KEY'] : []),
  ];
  if (problems.length > 0) throw new ConfigError(problems);
  return configOf(parsed, kafkaSecurity.settings);
}

/** A variable's first broken rule, with the value it had. */
function problemOf(error: ValidationError): string {
  const rules = Object.values(error.constraints ?? {});
  // Secrets are never echoed back, not even in a start-up error.
  const secret = /KEY$|PASSWORD|URL/.test(error.property);
  const got = secret ? '' : ` (got ${describeValue(error.value)})`;
  return `${rules[0] ?? `${error.property} is invalid`}${got}`;
}

/** The checked variables as the typed config. */
function configOf(parsed: EnvironmentVariables, kafkaSecurity: KafkaSecuritySettings): RingfenceConfig {
  const neo4jUrl = parsed.NEO4J_URL;
  return {
    host: parsed.HOST,
    port: parsed.PORT,
    httpPort: parsed.HTTP_PORT,
    tls: parsed.TLS_CERT_FILE && parsed.TLS_KEY_FILE ? { certFile: parsed.TLS_CERT_FILE, keyFile: parsed.TLS_KEY_FILE } : undefined,
    dataDir: parsed.DATA_DIR,
    databaseUrl: parsed.DATABASE_URL,
    kafkaBrokers: parsed.KAFKA_BROKERS?.split(','),
    kafkaSecurity,
    kafkaConsumerMaxWaitMs: parsed.KAFKA_CONSUMER_MAX_WAIT_MS,
    neo4j: neo4jUrl ? { url: neo4jUrl, user: parsed.NEO4J_USER ?? 'neo4j', password: parsed.NEO4J_PASSWORD ?? '' } : undefined,
    bootstrapApiKey: parsed.BOOTSTRAP_API_KEY,
    adminApiKey: parsed.ADMIN_API_KEY,
    internalApiKey: parsed.INTERNAL_API_KEY,
    credentialsKey: parsed.CREDENTIALS_KEY,
    lookupUrl: parsed.LOOKUP_URL,
    logLevel: parsed.LOG_LEVEL,
    bodyLimitBytes: parsed.BODY_LIMIT_BYTES,
    rpcTimeoutMs: parsed.RPC_TIMEOUT_MS,
    requestTimeoutMs: parsed.REQUEST_TIMEOUT_MS,
    maxEventLoopDelayMs: parsed.MAX_EVENT_LOOP_DELAY_MS,
    maxInFlightRequests: parsed.MAX_IN_FLIGHT_REQUESTS,
    maxUnauthenticatedInFlightRequests: parsed.MAX_UNAUTHENTICATED_IN_FLIGHT_REQUESTS,
    maxUnauthenticatedInFlightPerAddress: parsed.MAX_UNAUTHENTICATED_IN_FLIGHT_PER_ADDRESS,
    headersTimeoutMs: parsed.HEADERS_TIMEOUT_MS,
    bodyTimeoutMs: parsed.BODY_TIMEOUT_MS,
    accountRateLimitPerMinute: parsed.ACCOUNT_RATE_LIMIT_PER_MINUTE,
    customerRateLimitPerMinute: parsed.CUSTOMER_RATE_LIMIT_PER_MINUTE,
    callbackRetryBaseMs: parsed.CALLBACK_RETRY_BASE_MS,
    callbackAllowedNetworks: cidrListEntries(parsed.CALLBACK_ALLOWED_NETWORKS),
    trustedProxies: cidrListEntries(parsed.TRUSTED_PROXIES),
    memoryCacheEntries: parsed.MEMORY_CACHE_ENTRIES,
    velocityMaxKeys: parsed.VELOCITY_MAX_KEYS,
    graphMaxNodes: parsed.GRAPH_MAX_NODES,
    accountSharePercent: parsed.ACCOUNT_SHARE_PERCENT,
    maxConcurrentTrainings: parsed.MAX_CONCURRENT_TRAININGS,
    trainingMaxSeconds: parsed.TRAINING_MAX_SECONDS,
    trainingMaxExamples: parsed.TRAINING_MAX_EXAMPLES,
    ruleBudgetMs: parsed.RULE_BUDGET_MS,
    checkpointRulesBudgetMs: parsed.CHECKPOINT_RULES_BUDGET_MS,
    backtestMaxDecisions: parsed.BACKTEST_MAX_DECISIONS,
    sessionTtlSeconds: parsed.SESSION_TTL_SECONDS,
  };
}
