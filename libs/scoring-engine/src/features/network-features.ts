import type { GraphMerchantFraud, GraphNetworkFeaturesReply } from '@ringfence/contracts';
import type { CheckpointLookupFeatures } from '@ringfence/lookup';
import { ALL_CHECKPOINTS, type FeatureDefinition, type FeatureType, defineFeature } from './feature-definition';

const fromNetwork = (
  name: string,
  type: Extract<FeatureType, 'int' | 'double' | 'bool'>,
  description: string,
  read: (network: GraphNetworkFeaturesReply) => number | boolean,
): FeatureDefinition =>
  defineFeature({
    name,
    type,
    description: `${description} Null when the graph did not answer in time.`,
    checkpoints: ALL_CHECKPOINTS,
    compute: ({ inputs }) => (inputs.network === null ? null : read(inputs.network)),
  });

/** The checkpoints whose payload can name a merchant (`transaction.mid`). */
const MERCHANT_CHECKPOINTS = ['transaction', 'refund'] as const;

const fromMerchant = (name: string, type: Extract<FeatureType, 'int' | 'double'>, description: string, read: (merchant: GraphMerchantFraud) => number): FeatureDefinition =>
  defineFeature({
    name,
    type,
    description: `${description} Null when the request names no merchant or the graph did not answer in time.`,
    checkpoints: MERCHANT_CHECKPOINTS,
    compute: ({ inputs }) => (inputs.network?.merchant ? read(inputs.network.merchant) : null),
  });

/**
 * The graph's network features of the subject (customer or supplier), counted after this
 * request's own links: the graph service computes them, the catalogue names them.
 */
export const NETWORK_FEATURES: readonly FeatureDefinition[] = [
  defineFeature({
    name: 'networkAnswered',
    type: 'bool',
    description: 'The graph answered within half the checkpoint\'s budget; when false every other `network…` feature is null.',
    checkpoints: ALL_CHECKPOINTS,
    compute: ({ inputs }) => inputs.network !== null,
  }),
  fromNetwork('networkHopsToFraud', 'int', 'Edges from the subject to the nearest fraudster (a customer labelled FRAUDSTER or linked to an unforgiven chargeback); 0 when the subject is one, -1 when none is within reach.', (n) => n.hopsToFraud),
  fromNetwork('networkSize', 'int', 'Nodes in the subject\'s network (the connect traversal), the subject included.', (n) => n.networkSize),
  fromNetwork('networkCustomers', 'int', 'Customers in the network, a customer subject included.', (n) => n.networkCustomers),
  fromNetwork('networkMaxNodesHit', 'bool', 'The traversal stopped at its node cap: the network is at least this large.', (n) => n.maxNodesHit),
  fromNetwork('networkGrowthRate', 'double', 'New edges per hour over the 24 hours before the event, among the network\'s nodes within 6 hops.', (n) => n.networkGrowthRate),
  fromNetwork('networkSharedDeviceCustomers', 'int', 'The most other customers sharing one of the subject\'s devices.', (n) => n.maxOtherCustomers.device),
  fromNetwork('networkSharedCardCustomers', 'int', 'The most other customers sharing one of the subject\'s cards.', (n) => n.maxOtherCustomers.card),
  fromNetwork('networkSharedEmailCustomers', 'int', 'The most other customers sharing the subject\'s e-mail address.', (n) => n.maxOtherCustomers.email),
  fromNetwork('networkSharedPhoneCustomers', 'int', 'The most other customers sharing the subject\'s telephone number.', (n) => n.maxOtherCustomers.phone),
  fromNetwork('networkDeviceFraudCustomers', 'int', 'The most fraudsters (labelled FRAUDSTER or with an unforgiven chargeback, as known at the event) among the other customers of one of the subject\'s devices.', (n) => n.maxFraudCustomers.device),
  fromNetwork('networkDeviceFraudRate', 'double', 'The fraud rate of the subject\'s riskiest device: the share of fraudsters among the other customers who used it, from the labels and chargebacks known at the event (a label given later counts from then on); 0 when nobody else used one.', (n) => n.maxFraudRate.device),
  fromNetwork('networkCardFraudCustomers', 'int', 'The most fraudsters among the other customers of one of the subject\'s cards.', (n) => n.maxFraudCustomers.card),
  fromNetwork('networkCardFraudRate', 'double', 'The fraud rate of the subject\'s riskiest card: the share of fraudsters among the other customers who used it, as known at the event; 0 when nobody else used one.', (n) => n.maxFraudRate.card),
  fromMerchant('merchantCustomers', 'int', 'Other customers who paid at the request\'s merchant (`transaction.mid`; a refund\'s first transaction with one).', (m) => m.customers),
  fromMerchant('merchantFraudCustomers', 'int', 'Fraudsters (labelled FRAUDSTER or with an unforgiven chargeback, as known at the event) among them.', (m) => m.fraudCustomers),
  fromMerchant('merchantFraudRate', 'double', 'The merchant\'s fraud rate: the share of fraudsters among its other customers, from the labels and chargebacks known at the event (a label given later counts from then on); 0 when it has no other customer.', (m) => m.fraudRate),
];

const fromLookup = (
  name: keyof CheckpointLookupFeatures,
  type: Extract<FeatureType, 'int' | 'double'>,
  description: string,
): FeatureDefinition =>
  defineFeature({ name, type, description, checkpoints: ALL_CHECKPOINTS, compute: ({ inputs }) => inputs.lookup[name] });

/**
 * The known-fraud lookup's hits for the request's indicators (the subject's e-mail and
 * telephone, the device's IP address, the payment instruments): the account's own reports and
 * what other accounts reported (docs/api.md, "Lookup at checkpoints").
 */
export const LOOKUP_FEATURES: readonly FeatureDefinition[] = [
  fromLookup('knownFraudIndicators', 'int', 'Indicators of the request with any evidence visible to the account (its own, or other accounts\').'),
  fromLookup('lookupOwnIndicators', 'int', 'Indicators of the request the account itself reported (the LOOKUP source then answers PREVENT).'),
  fromLookup('lookupConsortiumIndicators', 'int', 'Indicators of the request other accounts reported.'),
  fromLookup('lookupConsortiumAccounts', 'int', 'The most distinct other accounts behind one of the request\'s indicators (0 when none).'),
  fromLookup('lookupConsortiumChargebacks', 'int', 'Chargebacks other accounts reported against the request\'s indicators, summed over them.'),
  fromLookup('lookupConsortiumManualReviews', 'int', 'Manual reviews other accounts reported against them, summed.'),
  fromLookup('lookupConsortiumReports', 'int', 'Plain reports other accounts made against them, summed.'),
  fromLookup('lookupConsortiumLastSeen', 'int', 'Epoch milliseconds of the other accounts\' latest evidence of any of the request\'s indicators; null when none.'),
  fromLookup('lookupConsortiumLastSeenHoursAgo', 'double', 'Hours from that evidence to the event (never negative, two decimals); null when none.'),
];
