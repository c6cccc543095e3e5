import { MessagePattern, Payload } from '@nestjs/microservices';
import { MessageBusController, type MessagePatternExtras } from '@ringfence/bus';
import {
  CONNECT_MAX_DEPTH,
  GraphConnectRequest,
  type GraphConnectReply,
  GraphNeighbourhoodRequest,
  type GraphNeighbourhoodReply,
  GraphNetworkFeaturesRequest,
  type GraphNetworkFeaturesReply,
  GraphVoucherUsesRequest,
  type GraphVoucherUsesReply,
  type MessageEnvelope,
  RpcTopics,
  StateGroups,
} from '@ringfence/contracts';
import { type NeighbourhoodNode, customerNode, pathToFraudster } from '@ringfence/graph-engine';
import { validatedRequestHandler } from '@ringfence/service-runtime';
import { graphQueryDuration } from './graph-metrics';
import { TenantGraphs } from './tenant-graphs.service';

/** Every graph query reads the index that the `graph` group keeps: it waits for the account's writes. */
const GRAPH_QUERY: MessagePatternExtras = { group: 'graph', consistentWith: [StateGroups.graph] };

/**
 * Answers the graph queries (responder group `graph`): connect statistics, voucher uses,
 * scoring's network features and a subject's neighbourhood (the network routes).
 *
 * Queries only read. A request's own links reach the index the one way every link does: its
 * ingest event, published (durably) before the query is sent, through `GraphUpdatesConsumer`;
 * the bus runs a query only once that consumer has handled the account's earlier events (read
 * your writes). So a query never shows a link that is not stored and published, and a request
 * that fails leaves nothing behind in the index.
 */
@MessageBusController()
export class GraphQueryResponders {
  // Each request's validated handler, made once rather than as closures per message.
  private readonly validatedConnect = validatedRequestHandler(GraphConnectRequest, (valid) => this.connect(valid));
  private readonly validatedVoucherUses = validatedRequestHandler(GraphVoucherUsesRequest, (valid) => this.voucherUses(valid));
  private readonly validatedNetworkFeatures = validatedRequestHandler(GraphNetworkFeaturesRequest, (valid) => this.networkFeatures(valid));
  private readonly validatedNeighbourhood = validatedRequestHandler(GraphNeighbourhoodRequest, (valid) => this.neighbourhood(valid));

  constructor(private readonly graphs: TenantGraphs) {}

  @MessagePattern(RpcTopics.graphConnect, GRAPH_QUERY)
  answerConnect(@Payload() message: MessageEnvelope<unknown>): Promise<GraphConnectReply> {
    return this.validatedConnect(message);
  }

  @MessagePattern(RpcTopics.graphVoucherUses, GRAPH_QUERY)
  answerVoucherUses(@Payload() message: MessageEnvelope<unknown>): Promise<GraphVoucherUsesReply> {
    return this.validatedVoucherUses(message);
  }

  @MessagePattern(RpcTopics.graphNetworkFeatures, GRAPH_QUERY)
  answerNetworkFeatures(@Payload() message: MessageEnvelope<unknown>): Promise<GraphNetworkFeaturesReply> {
    return this.validatedNetworkFeatures(message);
  }

  @MessagePattern(RpcTopics.graphNeighbourhood, GRAPH_QUERY)
  answerNeighbourhood(@Payload() message: MessageEnvelope<unknown>): Promise<GraphNeighbourhoodReply> {
    return this.validatedNeighbourhood(message);
  }

  async connect(message: MessageEnvelope<GraphConnectRequest>): Promise<GraphConnectReply> {
    const { accountId, environment, payload } = message;
    await this.graphs.ready();
    this.graphs.refuseWhenOverShare(message);
    // The customer is created if new, so a bare request answers a graph of one. Its connect
    // event (already published) creates the same node in the store. Within the account's share only.
    const { graph } = await this.graphs.apply({ accountId, environment }, [{ type: 'node', node: customerNode(payload.customerId) }]);
    const timer = graphQueryDuration.startTimer({ query: 'connect' });
    try {
      return graph.index.connect(payload.customerId, { depth: payload.depth, nowMs: payload.nowMs });
    } finally {
      timer();
    }
  }

  async voucherUses({ accountId, environment, payload }: MessageEnvelope<GraphVoucherUsesRequest>): Promise<GraphVoucherUsesReply> {
    const graph = await this.graphs.get(accountId, environment);
    const timer = graphQueryDuration.startTimer({ query: 'voucher-uses' });
    try {
      const customers = graph.index.customersWithin(payload.customerId, payload.depth);
      return { uses: graph.redemptions.successfulUses(payload.voucherCode, customers), networkCustomers: customers.length };
    } finally {
      timer();
    }
  }

  async networkFeatures(message: MessageEnvelope<GraphNetworkFeaturesRequest>): Promise<GraphNetworkFeaturesReply> {
    const { accountId, environment, payload } = message;
    const graph = await this.graphs.get(accountId, environment);
    this.graphs.refuseWhenOverShare(message);
    const timer = graphQueryDuration.startTimer({ query: 'network-features' });
    try {
      const subjectKind = payload.subjectKind ?? 'customer';
      const { shared: _perAttribute, ...features } = graph.index.networkFeatures(payload.customerId, { depth: CONNECT_MAX_DEPTH, nowMs: payload.nowMs }, subjectKind);
      const merchant = payload.merchantId === undefined ? null : graph.merchantFraud(payload.merchantId, payload.customerId, subjectKind);
      return { ...features, merchant };
    } finally {
      timer();
    }
  }

  /**
   * The subject's neighbourhood and, for the same subject, exactly what connect answers with
   * `features=true` at its default depth (one computation, `GraphIndex.connect`). Nothing is
   * created: an unknown subject is a lone node whose statistics are connect's for a new customer.
   */
  async neighbourhood({ accountId, environment, payload }: MessageEnvelope<GraphNeighbourhoodRequest>): Promise<GraphNeighbourhoodReply> {
    const graph = await this.graphs.get(accountId, environment);
    const timer = graphQueryDuration.startTimer({ query: 'neighbourhood' });
    try {
      const { subjectKind, subjectId } = payload;
      const { nodes, edges, truncated } = graph.index.neighbourhood(subjectId, { depth: payload.depth, limit: payload.limit }, subjectKind);
      const ids = nodes.map((node) => `${node.kind}:${node.identity}`);
      return {
        nodes: nodes.map((node, k) => ({
          id: ids[k],
          type: node.kind,
          value: node.identity,
          depth: node.depth,
          ...(k === 0 ? { subject: true as const } : {}),
          ...(node.fraudster ? { fraudster: true as const } : {}),
        })),
        edges: edges.map((edge) => ({ source: ids[edge.source], target: ids[edge.target], firstSeen: edge.firstSeenMs, attribute: edgeAttribute(nodes[edge.source], nodes[edge.target]) })),
        truncated,
        pathToFraudster: pathToFraudster(nodes.length, edges, (k) => nodes[k].fraudster)?.map((k) => ids[k]) ?? null,
        statistics: graph.index.connect(subjectId, { depth: CONNECT_MAX_DEPTH, nowMs: payload.nowMs }, subjectKind),
      };
    } finally {
      timer();
    }
  }
}

const isSubjectKind = (kind: string) => kind === 'customer' || kind === 'supplier';

/**
 * What an edge links through (ADR-0014): its endpoint that is no customer or supplier, else
 * (a customer–supplier link of an order) the supplier. A card is named by its instrument id or
 * its owner's payment-method id, never by a number the graph does not hold.
 */
export function edgeAttribute(a: NeighbourhoodNode, b: NeighbourhoodNode): { kind: string; value: string } {
  const attribute = !isSubjectKind(a.kind) ? a : !isSubjectKind(b.kind) ? b : a.kind === 'supplier' ? a : b;
  return { kind: attribute.kind, value: attribute.kind === 'card' ? cardName(attribute.identity) : attribute.identity };
}

function cardName(identity: string): string {
  if (identity.startsWith('instrument:')) return identity.slice('instrument:'.length);
  try {
    const [, , paymentMethodId] = JSON.parse(identity.slice('method:'.length)) as unknown[];
    return typeof paymentMethodId === 'string' ? paymentMethodId : identity;
  } catch {
    return identity;
  }
}
