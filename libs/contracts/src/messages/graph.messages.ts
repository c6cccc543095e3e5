import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import type { ConnectFeaturesResponseDto } from '../http/responses/connect.response';
import { CONNECT_MAX_DEPTH } from '../http/connect/connect.query.dto';
import { NEIGHBOURHOOD_MAX_DEPTH, NEIGHBOURHOOD_MAX_LIMIT } from '../http/subjects/subject-network.query.dto';
import { VOUCHER_CHECK_MAX_DEPTH } from '../http/voucher/voucher-check.request.dto';
import { MAX_IDENTIFIER_LENGTH } from '../validation/patterns';
import { ENTITY_INGEST_TOPICS } from './payload-routes';

/** The ingest topics whose payloads add to the graph (a checkpoint names its own among them). */
export const GRAPH_SOURCE_TOPICS = ENTITY_INGEST_TOPICS;
export type GraphSourceTopic = (typeof GRAPH_SOURCE_TOPICS)[number];

/**
 * `ringfence.rpc.graph.connect.v1`: POST /v2/connect?features=true, sent once the connect
 * event is published; the graph answers after its consumer has applied it, then traverses
 * from its customer.
 */
export class GraphConnectRequest {
  @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) customerId!: string;
  @IsInt() @Min(1) @Max(CONNECT_MAX_DEPTH) depth!: number;
  /** "Now" for edge ages and growth: the request's timestamp, epoch ms. */
  @IsInt() nowMs!: number;
}

/** The statistics of the answer: every field but the envelope's. */
export type GraphConnectReply = Omit<ConnectFeaturesResponseDto, 'timestamp' | 'clientID' | 'customerID'>;

/**
 * `ringfence.rpc.graph.voucher-uses.v1`: successful redemptions of a code across the
 * customer's network up to `depth` (ADR-0004). The gateway resolves depth and threshold
 * from the request and the account's settings and compares.
 */
export class GraphVoucherUsesRequest {
  @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) customerId!: string;
  @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) voucherCode!: string;
  @IsInt() @Min(1) @Max(VOUCHER_CHECK_MAX_DEPTH) depth!: number;
}

export interface GraphVoucherUsesReply {
  /** Successful redemptions of the code by the customers of the network. */
  uses: number;
  /** Customers in the network, the customer included. */
  networkCustomers: number;
}

/** Whose network a checkpoint asks about: its customer, or its supplier (payouts, supplier registrations). */
export const NETWORK_SUBJECT_KINDS = ['customer', 'supplier'] as const;

/**
 * `ringfence.rpc.graph.network-features.v1`: what scoring reads from the graph about the
 * checkpoint's customer (or supplier), once the graph has applied the checkpoint's own event.
 */
export class GraphNetworkFeaturesRequest {
  /** The subject's id: a customerId, or a supplierId when `subjectKind` is `supplier`. */
  @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) customerId!: string;
  @IsInt() nowMs!: number;
  /** Absent: `customer`. */
  @IsOptional() @IsIn(NETWORK_SUBJECT_KINDS) subjectKind?: (typeof NETWORK_SUBJECT_KINDS)[number];
  /** The merchant the checkpoint is about (`transaction.mid`), whose fraud rate is wanted; absent when it names none. */
  @IsOptional() @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) merchantId?: string;
}

/** A merchant's customers other than the subject, and the fraudsters among them as known now. */
export interface GraphMerchantFraud {
  customers: number;
  fraudCustomers: number;
  /** fraudCustomers / customers (0–1); 0 without other customers. */
  fraudRate: number;
}

/** As `NetworkFeatures` of @ringfence/graph-engine, minus the per-attribute list. */
export interface GraphNetworkFeaturesReply {
  hopsToFraud: number;
  networkSize: number;
  networkCustomers: number;
  maxNodesHit: boolean;
  networkGrowthRate: number;
  /** Per attribute kind, the most other customers sharing one of the customer's nodes. */
  maxOtherCustomers: { device: number; card: number; email: number; phone: number };
  /** Per attribute kind, the most fraudster customers (as known now) sharing one of its nodes. */
  maxFraudCustomers: { device: number; card: number; email: number; phone: number };
  /** Per attribute kind, the highest share of fraudsters among the other customers of one of its nodes (0–1). */
  maxFraudRate: { device: number; card: number; email: number; phone: number };
  /** The request's merchant; null when the request named none. */
  merchant: GraphMerchantFraud | null;
}

/**
 * `ringfence.rpc.graph.neighbourhood.v1`: GET /v2/customer/:customerId/network and the supplier
 * twin: the subject's neighbourhood for drawing and its connect statistics, once the graph has
 * handled the account's earlier writes.
 */
export class GraphNeighbourhoodRequest {
  @IsIn(NETWORK_SUBJECT_KINDS) subjectKind!: (typeof NETWORK_SUBJECT_KINDS)[number];
  @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) subjectId!: string;
  @IsInt() @Min(1) @Max(NEIGHBOURHOOD_MAX_DEPTH) depth!: number;
  @IsInt() @Min(1) @Max(NEIGHBOURHOOD_MAX_LIMIT) limit!: number;
  /** "Now" for the statistics' edge ages and growth: the request's time, epoch ms. */
  @IsInt() nowMs!: number;
}

/** As the route answers it (`SubjectNetworkDto` of the HTTP contracts). */
export interface GraphNeighbourhoodNodeMessage {
  id: string;
  type: string;
  value: string;
  depth: number;
  subject?: true;
  fraudster?: true;
}

/** What an edge links its subject through: its endpoint that is no customer (for a customer–supplier link, the supplier). */
export interface NetworkEdgeAttributeMessage {
  kind: string;
  /** The attribute as an analyst reads it: an e-mail, a phone, a device id, a card's instrument id (the gateway shows `BIN…last4` when known)… */
  value: string;
}

export interface GraphNeighbourhoodReply {
  nodes: GraphNeighbourhoodNodeMessage[];
  edges: { source: string; target: string; firstSeen: number; attribute: NetworkEdgeAttributeMessage }[];
  truncated: boolean;
  /** Node ids from the subject to the nearest fraudster over the listed edges; null when none is listed. */
  pathToFraudster: string[] | null;
  /** Connect's statistics from the subject (depth 20, the default caps). */
  statistics: GraphConnectReply;
}
