import type { NodeKind } from './node-kind';

/** The attribute kinds whose sharing scoring looks at. */
export const SHARED_ATTRIBUTE_KINDS = ['device', 'card', 'email', 'phone'] as const satisfies readonly NodeKind[];
export type SharedAttributeKind = (typeof SHARED_ATTRIBUTE_KINDS)[number];

/** Whose network scoring asks about: a checkpoint's customer, or its supplier (payouts, supplier registrations). */
export type NetworkSubjectKind = 'customer' | 'supplier';

/** One of the subject's devices, cards, e-mails or phones and how many others share it. */
export interface SharedAttribute {
  kind: SharedAttributeKind;
  identity: string;
  /** Customers other than the subject linked to the same node. */
  otherCustomers: number;
  /** Of those, the fraudsters (labelled FRAUDSTER or linked to an unforgiven chargeback) known now. */
  fraudCustomers: number;
}

/**
 * What the scoring service reads from the graph about one customer (or supplier), from the same
 * traversal and caps as connect.
 */
export interface NetworkFeatures {
  /** As connect's: edges to the nearest visited fraudster customer, 0 if the subject is one, else -1. */
  hopsToFraud: number;
  /** Nodes visited (the customer included), not saturated at the node cap. */
  networkSize: number;
  /** Customers visited, a customer subject included. */
  networkCustomers: number;
  maxNodesHit: boolean;
  /** New edges per hour (the 24 h before now) among nodes visited at depth ≤ 6: connect's edgeGeneralGrowthRate. */
  networkGrowthRate: number;
  /** Each of the subject's devices, cards, e-mails and phones, in the order first linked. */
  shared: SharedAttribute[];
  /** Per kind, the most customers other than this one sharing one of its nodes (0 when none). */
  maxOtherCustomers: Record<SharedAttributeKind, number>;
  /** Per kind, the most fraudster customers other than this one sharing one of its nodes. */
  maxFraudCustomers: Record<SharedAttributeKind, number>;
  /**
   * Per kind, the highest fraud rate of one of its nodes: the share of the other customers
   * linked to the node who are fraudsters, from the labels and chargebacks known now (0 when
   * no other customer shares it).
   */
  maxFraudRate: Record<SharedAttributeKind, number>;
}
