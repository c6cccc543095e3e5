import { CustomerUpdatedEvent } from './customer-updated.event';
import {
  ConnectLinkedEvent,
  DisputeUpdatedEvent,
  PayoutRequestedEvent,
  RefundRequestedEvent,
  RegistrationSubmittedEvent,
  SupplierUpdatedEvent,
  VoucherCreatedEvent,
  VoucherRedemptionSubmittedEvent,
} from './ingest-events';
import { EventTopics, RpcTopics } from './topics';
import { TransactionUpdatedEvent } from './transaction-updated.event';
import type { CheckpointName } from '../checkpoints/checkpoint-names';

/** Every kind of entity the payloads carry (ADR-0005), each upserted by its identifier. */
export const ENTITY_KINDS = [
  'customer',
  'supplier',
  'device',
  'paymentMethod',
  'order',
  'transaction',
  'refund',
  'payout',
  'voucher',
  'voucherRedemption',
  'dispute',
  'registration',
] as const;
export type EntityKind = (typeof ENTITY_KINDS)[number];

/** One route of accepted data: what the gateway publishes, ingestion stores and the graph links. */
export interface PayloadRoute {
  /** The HTTP paths (POST) whose validated body becomes this payload. */
  paths: readonly string[];
  /** The ingest topic the gateway publishes the payload on. */
  ingestTopic: string;
  /** The class the payload is validated as, on the bus and (through its parent) at the gateway. */
  payloadClass: new () => object;
  /** The entities the payload can describe: what ingestion stores from it. */
  entities: readonly EntityKind[];
  /** The checkpoint scoring answers for it, if any, its request topic and its decision topic. */
  checkpoint?: string;
  rpcTopic?: string;
  decisionTopic?: string;
}

/**
 * The one table of the accepted data (path, checkpoint, topics, payload class, entities), in
 * checkpoint order first. The gateway's checkpoint routes, ingestion's and the graph's
 * subscriptions, scoring's checkpoint definitions and the consistency groups below all derive
 * from it; their specs check that each one covers exactly these rows.
 */
export const PAYLOAD_ROUTES = {
  customer: {
    // The original service's customer events map onto this payload (docs/api.md, "Other v2 paths").
    paths: ['/v2/customer', '/v2/order', '/v2/login', '/v2/customer/:customerId/tags', '/v2/tag/customer', '/v2/backfill/customer', '/v2/backfill/order', '/v2/backfill/login'],
    ingestTopic: EventTopics.customerUpdated,
    payloadClass: CustomerUpdatedEvent,
    entities: ['customer', 'device'],
    checkpoint: 'customer',
    rpcTopic: RpcTopics.customerCheckpoint,
    decisionTopic: EventTopics.customerScored,
  },
  registration: {
    paths: ['/v2/registration'],
    ingestTopic: EventTopics.registrationSubmitted,
    payloadClass: RegistrationSubmittedEvent,
    entities: ['customer', 'supplier', 'device', 'registration'],
    checkpoint: 'registration',
    rpcTopic: RpcTopics.registrationCheckpoint,
    decisionTopic: EventTopics.registrationScored,
  },
  payout: {
    paths: ['/v2/payout'],
    ingestTopic: EventTopics.payoutRequested,
    payloadClass: PayoutRequestedEvent,
    entities: ['supplier', 'paymentMethod', 'payout'],
    checkpoint: 'payout',
    rpcTopic: RpcTopics.payoutCheckpoint,
    decisionTopic: EventTopics.payoutScored,
  },
  refund: {
    paths: ['/v2/refund'],
    ingestTopic: EventTopics.refundRequested,
    payloadClass: RefundRequestedEvent,
    entities: ['customer', 'device', 'order', 'paymentMethod', 'transaction', 'refund'],
    checkpoint: 'refund',
    rpcTopic: RpcTopics.refundCheckpoint,
    decisionTopic: EventTopics.refundScored,
  },
  voucherRedemption: {
    paths: ['/v2/paymentmethod/voucher'],
    ingestTopic: EventTopics.voucherRedemptionSubmitted,
    payloadClass: VoucherRedemptionSubmittedEvent,
    entities: ['customer', 'voucherRedemption'],
    checkpoint: 'voucherRedemption',
    rpcTopic: RpcTopics.voucherRedemptionCheckpoint,
    decisionTopic: EventTopics.voucherRedemptionScored,
  },
  transaction: {
    // /psp/transaction scores when asked (`?checkpoint=`); /async scores for the feed only.
    // /v2/checkout and /v2/transaction (and their backfills): the original service's payment events.
    paths: ['/psp/transaction', '/psp/transaction/async', '/v2/checkout', '/v2/transaction', '/v2/backfill/checkout', '/v2/backfill/transaction'],
    ingestTopic: EventTopics.transactionUpdated,
    payloadClass: TransactionUpdatedEvent,
    entities: ['customer', 'device', 'paymentMethod', 'transaction'],
    checkpoint: 'transaction',
    rpcTopic: RpcTopics.transactionCheckpoint,
    decisionTopic: EventTopics.transactionScored,
  },
  supplier: {
    paths: ['/v2/supplier'],
    ingestTopic: EventTopics.supplierUpdated,
    payloadClass: SupplierUpdatedEvent,
    entities: ['supplier', 'device'],
  },
  voucher: {
    paths: ['/v2/voucher'],
    ingestTopic: EventTopics.voucherCreated,
    payloadClass: VoucherCreatedEvent,
    entities: ['voucher'],
  },
  dispute: {
    paths: ['/psp/dispute', '/psp/dispute/async', '/v2/backfill/dispute'],
    ingestTopic: EventTopics.disputeUpdated,
    payloadClass: DisputeUpdatedEvent,
    entities: ['dispute', 'transaction'],
  },
  connect: {
    // /v2/chargeback (and its backfill): a chargeback linked to its customer, as connect's is.
    paths: ['/v2/connect', '/v2/chargeback', '/v2/backfill/chargeback'],
    ingestTopic: EventTopics.connectLinked,
    payloadClass: ConnectLinkedEvent,
    entities: ['customer', 'device', 'paymentMethod', 'dispute'],
  },
} as const satisfies Record<string, PayloadRoute>;

type Routes = typeof PAYLOAD_ROUTES;
export type PayloadRouteName = keyof Routes;

/** The routes that are checkpoints: each one's name is its checkpoint's. */
export type CheckpointRouteName = { [K in PayloadRouteName]: Routes[K] extends { checkpoint: K } ? K : never }[PayloadRouteName];
export type Checkpoint = CheckpointRouteName;

/** The ingest topics whose payloads describe entities: what ingestion stores and the graph links. */
export type EntityIngestTopic = Routes[PayloadRouteName]['ingestTopic'];

/** Every row of the table, for services that subscribe to each. */
export const PAYLOAD_ROUTE_LIST: ReadonlyArray<Routes[PayloadRouteName]> = Object.values(PAYLOAD_ROUTES);

/**
 * The checkpoint rows of the table are the checkpoint list's (`CHECKPOINTS`, which the console
 * imports too): a checkpoint added to one and not the other does not compile.
 */
const _SAME_CHECKPOINTS: [Checkpoint] extends [CheckpointName] ? ([CheckpointName] extends [Checkpoint] ? true : never) : never = true;

/** The ingest topics of the table (every one carries entities). */
export const ENTITY_INGEST_TOPICS: readonly EntityIngestTopic[] = PAYLOAD_ROUTE_LIST.map((route) => route.ingestTopic);

/** The ingest topics of the checkpoints: the activity (payments, sign-ups, refunds…) that velocity counts. */
export const CHECKPOINT_INGEST_TOPICS: readonly EntityIngestTopic[] = PAYLOAD_ROUTE_LIST.flatMap((route) => ('checkpoint' in route ? [route.ingestTopic] : []));

/** Every decision topic of the table (the checkpoints' decision feed). */
export const DECISION_TOPICS: readonly string[] = [...new Set(PAYLOAD_ROUTE_LIST.flatMap((route) => ('decisionTopic' in route ? [route.decisionTopic] : [])))];

/**
 * The consumer groups whose state other requests read, and the topics that feed each. A
 * responder that reads a group's state names it (`consistentWith` on the bus), and the bus
 * answers only once that group has handled what the account wrote before the request: once a
 * write is answered, every later request of the account sees it. The consuming services
 * subscribe with exactly these groups and topics (their specs check it).
 */
export const StateGroups = {
  /** Entity documents (ingestion): what its entity reads answer from (scoring's stored fields and warnings). */
  ingestion: { group: 'ingestion', topics: ENTITY_INGEST_TOPICS },
  /** The graph index: what connect, the voucher check and network features read. */
  graph: { group: 'graph', topics: [...ENTITY_INGEST_TOPICS, EventTopics.customerLabelUpdated] },
  /** Review-callback deliveries (labelling): what the deliveries read answers from. Label changes and payment reviews. */
  callbacks: { group: 'callbacks', topics: [EventTopics.customerLabelUpdated, EventTopics.supplierLabelUpdated, EventTopics.paymentReviewed] },
  /** Cases (labelling): the REVIEW decisions of every checkpoint, grouped by subject; what the case reads answer from. */
  cases: { group: 'cases', topics: DECISION_TOPICS },
  /**
   * Velocity counters (scoring, in memory): what the checkpoints' velocity features read. The
   * checkpoints' activity, and disputes as they arrive (disputed payments per card, customer and merchant).
   */
  scoringVelocity: { group: 'scoring-velocity', topics: [...CHECKPOINT_INGEST_TOPICS, EventTopics.disputeUpdated] },
  /**
   * Device read models (ingestion): the client SDKs' session events, and every ingest topic for
   * the customers and cards a payload names with its device (`device.deviceId` or `deviceId`).
   */
  devices: { group: 'devices', topics: [EventTopics.clientEventsReceived, ...ENTITY_INGEST_TOPICS] },
} as const satisfies Record<string, { group: string; topics: readonly string[] }>;
