import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { MessageBus } from '@ringfence/bus';
import {
  CONNECT_MAX_DEPTH,
  GraphConnectRequest,
  type GraphConnectReply,
  GraphNetworkFeaturesRequest,
  type GraphNetworkFeaturesReply,
  GraphVoucherUsesRequest,
  type GraphVoucherUsesReply,
  type MessageEnvelope,
  RpcTopics,
  StateGroups,
} from '@ringfence/contracts';
import { MESSAGE_BUS, validatedRequestHandler } from '@ringfence/service-runtime';
import { graphQueryDuration } from './graph-metrics';
import { TenantGraphs } from './tenant-graphs.service';

/** Every graph query reads the index that the `graph` group keeps: it waits for the account's writes. */
const GRAPH_QUERY = { group: 'graph', consistentWith: [StateGroups.graph] };

/**
 * Answers the graph queries (responder group `graph`): connect statistics, voucher uses and
 * scoring's network features.
 *
 * Queries only read. A request's own links reach the index the one way every link does: its
 * ingest event, published (durably) before the query is sent, through `GraphUpdatesConsumer`;
 * the bus runs a query only once that consumer has handled the account's earlier events (read
 * your writes). So a query never shows a link that is not stored and published, and a request
 * that fails leaves nothing behind in the index.
 */
@Injectable()
export class GraphQueryResponders implements OnModuleInit {
  constructor(
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    private readonly graphs: TenantGraphs,
  ) {}

  onModuleInit(): void {
    this.bus.handle(RpcTopics.graphConnect, GRAPH_QUERY, validatedRequestHandler(GraphConnectRequest, (message) => this.connect(message)));
    this.bus.handle(RpcTopics.graphVoucherUses, GRAPH_QUERY, validatedRequestHandler(GraphVoucherUsesRequest, (message) => this.voucherUses(message)));
    this.bus.handle(
      RpcTopics.graphNetworkFeatures,
      GRAPH_QUERY,
      validatedRequestHandler(GraphNetworkFeaturesRequest, (message) => this.networkFeatures(message)),
    );
  }

  async connect({ accountId, environment, payload }: MessageEnvelope<GraphConnectRequest>): Promise<GraphConnectReply> {
    const graph = await this.graphs.get(accountId, environment);
    // The customer is created if new, so a bare request answers a graph of one. Its connect
    // event (already published) creates the same node in the store.
    graph.index.ensureNode('customer', payload.customerId);
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

  async networkFeatures({ accountId, environment, payload }: MessageEnvelope<GraphNetworkFeaturesRequest>): Promise<GraphNetworkFeaturesReply> {
    const graph = await this.graphs.get(accountId, environment);
    const timer = graphQueryDuration.startTimer({ query: 'network-features' });
    try {
      const { shared: _perAttribute, ...features } = graph.index.networkFeatures(
        payload.customerId,
        { depth: CONNECT_MAX_DEPTH, nowMs: payload.nowMs },
        payload.subjectKind ?? 'customer',
      );
      return features;
    } finally {
      timer();
    }
  }
}
