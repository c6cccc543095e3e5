import type { GraphNetworkFeaturesReply } from '@ringfence/contracts';

/**
 * The rule context (ADR-0011): what a CEL expression can read at a checkpoint. The fields
 * of each part are declared once here, with their CEL type and meaning; the type-check at save
 * time, the context built at each checkpoint and the documentation all read these tables, so
 * they cannot disagree.
 *
 * - `payload`: the request body as sent (a map; JSON numbers are CEL doubles).
 * - `features`: the feature catalogue's values (types from the catalogue; absent when not computed).
 * - `network`: the graph's network features (each absent when the graph did not answer in time).
 * - `labels`: the subject's current labels, category to review.
 * - `lookup`: the known-fraud lookup's hits for the request's indicators.
 * - `score`: the model's score, 0 to 100.
 */

/** The CEL types a context field can have. */
export type CelScalarType = 'bool' | 'int' | 'double' | 'string';

export type ContextValue = boolean | number | string | null;

export interface ContextFieldDeclaration {
  name: string;
  type: CelScalarType;
  description: string;
}

/** The graph's answer as rules see it: the network features of the subject. */
export type NetworkInputs = GraphNetworkFeaturesReply;

interface FieldReader<S> extends ContextFieldDeclaration {
  read(source: S): ContextValue;
}

export const NETWORK_FIELDS: ReadonlyArray<FieldReader<NetworkInputs>> = [
  { name: 'hopsToFraud', type: 'int', description: 'Edges to the nearest fraudster in the graph; -1 when none is within reach.', read: (n) => n.hopsToFraud },
  { name: 'networkSize', type: 'int', description: 'Nodes in the subject\'s network (connect semantics, ADR-0004).', read: (n) => n.networkSize },
  { name: 'networkCustomers', type: 'int', description: 'Other customers in the network.', read: (n) => n.networkCustomers },
  { name: 'maxNodesHit', type: 'bool', description: 'The traversal stopped at its node cap: the network is at least this large.', read: (n) => n.maxNodesHit },
  { name: 'growthRate', type: 'double', description: 'Share of the network added in the last 24 hours.', read: (n) => n.networkGrowthRate },
  { name: 'sharedDeviceCustomers', type: 'int', description: 'Most other customers sharing one of the subject\'s devices.', read: (n) => n.maxOtherCustomers.device },
  { name: 'sharedCardCustomers', type: 'int', description: 'Most other customers sharing one of the subject\'s cards.', read: (n) => n.maxOtherCustomers.card },
  { name: 'sharedEmailCustomers', type: 'int', description: 'Most other customers sharing the subject\'s e-mail.', read: (n) => n.maxOtherCustomers.email },
  { name: 'sharedPhoneCustomers', type: 'int', description: 'Most other customers sharing the subject\'s phone.', read: (n) => n.maxOtherCustomers.phone },
  { name: 'deviceFraudCustomers', type: 'int', description: 'Most fraudsters among the other customers of one of the subject\'s devices.', read: (n) => n.maxFraudCustomers.device },
  { name: 'deviceFraudRate', type: 'double', description: 'Highest share of fraudsters among the other customers of one of the subject\'s devices (0–1).', read: (n) => n.maxFraudRate.device },
  { name: 'cardFraudCustomers', type: 'int', description: 'Most fraudsters among the other customers of one of the subject\'s cards.', read: (n) => n.maxFraudCustomers.card },
  { name: 'cardFraudRate', type: 'double', description: 'Highest share of fraudsters among the other customers of one of the subject\'s cards (0–1).', read: (n) => n.maxFraudRate.card },
];

/** The known-fraud lookup at a checkpoint (ADR-0007), as the scorer computes it. */
export interface LookupInputs {
  /** `own`, `consortium` or `none`. */
  verdict: string;
  knownFraudIndicators: number;
  lookupOwnIndicators: number;
  lookupConsortiumIndicators: number;
  lookupConsortiumAccounts: number;
}

export const LOOKUP_FIELDS: ReadonlyArray<FieldReader<LookupInputs>> = [
  { name: 'verdict', type: 'string', description: '`own` (the account reported one of the request\'s indicators), `consortium` (enough other accounts did) or `none`.', read: (l) => l.verdict },
  { name: 'knownIndicators', type: 'int', description: 'Indicators of the request with any visible evidence.', read: (l) => l.knownFraudIndicators },
  { name: 'ownIndicators', type: 'int', description: 'Indicators of the request the account itself reported.', read: (l) => l.lookupOwnIndicators },
  { name: 'consortiumIndicators', type: 'int', description: 'Indicators of the request other accounts reported.', read: (l) => l.lookupConsortiumIndicators },
  { name: 'consortiumAccounts', type: 'int', description: 'Distinct other accounts that reported one of them.', read: (l) => l.lookupConsortiumAccounts },
];

/** Everything a rule reads at one checkpoint, in JSON form: what the decision event records. */
export interface RuleInputs {
  payload: Record<string, unknown>;
  features: Record<string, ContextValue>;
  /** Null when the graph did not answer in time. */
  network: Record<string, ContextValue> | null;
  labels: Record<string, string>;
  lookup: Record<string, ContextValue>;
  score: number;
}

/** The JSON form of the network part, from the graph's answer (null stays null). */
export function networkInputs(network: NetworkInputs | null): Record<string, ContextValue> | null {
  return network === null ? null : readFields(NETWORK_FIELDS, network);
}

export function lookupInputs(lookup: LookupInputs): Record<string, ContextValue> {
  return readFields(LOOKUP_FIELDS, lookup);
}

function readFields<S>(fields: ReadonlyArray<FieldReader<S>>, source: S): Record<string, ContextValue> {
  const values: Record<string, ContextValue> = {};
  for (const field of fields) values[field.name] = field.read(source);
  return values;
}

/** A top-level name of the context, its CEL type and meaning. */
export interface ContextVariable {
  name: string;
  celType: string;
  description: string;
}

/** Top-level names of the context, for the type-check and the docs. */
export const CONTEXT_VARIABLES: readonly ContextVariable[] = [
  { name: 'payload', celType: 'map', description: 'The request body as sent: `payload.transaction.amount`. JSON numbers are CEL doubles: write `2.0` in arithmetic with them (comparisons with ints work). A field the request did not send is absent: test it with `has(payload.transaction.amount)`.' },
  { name: 'features', celType: 'Features', description: 'The feature catalogue (docs/features.md). A feature that could not be computed is absent: test it with `has(features.name)`.' },
  { name: 'network', celType: 'Network', description: "The graph's network features (below); each is absent when the graph did not answer in time: `has(network.hopsToFraud)`." },
  { name: 'labels', celType: 'map<string, string>', description: 'The subject\'s current labels, category to review: `"PAYMENT_FRAUD" in labels && labels.PAYMENT_FRAUD == "GENUINE"`.' },
  { name: 'lookup', celType: 'Lookup', description: "The known-fraud lookup's hits for the request's indicators (below)." },
  { name: 'score', celType: 'int', description: "The model's score, 0 to 100." },
];
