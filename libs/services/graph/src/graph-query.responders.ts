import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { MessageBus } from '@ringfence/bus';
import {
  CONNECT_MAX_DEPTH,
  EventTopics,
  GraphConnectRequest,
  type GraphConnectReply,
  GraphNetworkFeaturesRequest,
  type GraphNetworkFeaturesReply,
  GraphVoucherUsesRequest,
  type GraphVoucherUsesReply,
  type Environment,
  type MessageEnvelope,
  RpcTopics,
} from '@ringfence/contracts';
import { ENTITY_DOCUMENT_REPOSITORY, type EntityDocumentRepository } from '@ringfence/entities';
import type { GraphChange } from '@ringfence/graph-engine';
import { MESSAGE_BUS, validatedRequestHandler } from '@ringfence/service-runtime';
import { graphQueryDuration } from './graph-metrics';
import { graphRouteOf } from './graph-routes';
import { TenantGraphs } from './tenant-graphs.service';

/**
 * Answers the graph queries (responder group `graph`): connect statistics, voucher uses and
 * scoring's network features.
 *
 * A query that carries its request's payload applies that payload's changes to the index first
 * (read your own writes: the request's links count in its own answer). It does not write the
 * store: the same payload's ingest event, published by the gateway at the same time, does that
 * through `GraphUpdatesConsumer`, and applying it again there changes nothing.
 */
@Injectable()
export class GraphQueryResponders implements OnModuleInit {
  constructor(
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(ENTITY_DOCUMENT_REPOSITORY) private readonly documents: EntityDocumentRepository,
    private readonly graphs: TenantGraphs,
  ) {}

  onModuleInit(): void {
    this.bus.handle(RpcTopics.graphConnect, { group: 'graph' }, validatedRequestHandler(GraphConnectRequest, (message) => this.connect(message)));
    this.bus.handle(RpcTopics.graphVoucherUses, { group: 'graph' }, validatedRequestHandler(GraphVoucherUsesRequest, (message) => this.voucherUses(message)));
    this.bus.handle(
      RpcTopics.graphNetworkFeatures,
      { group: 'graph' },
      validatedRequestHandler(GraphNetworkFeaturesRequest, (message) => this.networkFeatures(message)),
    );
  }

  async connect({ accountId, environment, payload }: MessageEnvelope<GraphConnectRequest>): Promise<GraphConnectReply> {
    const scope = { accountId, environment };
    const graph = await this.graphs.apply(scope, await this.changesOf(scope, EventTopics.connectLinked, payload.payload));
    // decisions §4: the customer is created if new, so a bare request answers a graph of one.
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
    const scope = { accountId, environment };
    const changes = payload.sourceTopic && payload.sourcePayload ? await this.changesOf(scope, payload.sourceTopic, payload.sourcePayload) : [];
    const graph = await this.graphs.apply(scope, changes);
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

  private async changesOf(scope: { accountId: string; environment: Environment }, topic: string, payload: Record<string, unknown>): Promise<GraphChange[]> {
    const graphRoute = graphRouteOf(topic);
    return graphRoute ? graphRoute.changes(payload, scope, this.documents) : [];
  }
}
