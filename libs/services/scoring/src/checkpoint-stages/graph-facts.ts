import { voucherCheckPolicy, voucherCheckRecommendation } from '@ringfence/accounts';
import { BusRemoteError, type MessageBus } from '@ringfence/bus';
import { type CheckpointRpcTopic, type GraphNetworkFeaturesReply, type MessageEnvelope, type RpcTopicMap, RpcTopics } from '@ringfence/contracts';
import { type Logger, OutageLog, type RingfenceConfig, newEventId } from '@ringfence/platform';
import type { VoucherNetworkSignal } from '@ringfence/scoring-engine';
import type { CheckpointDefinition } from '../checkpoint-definition';
import type { CheckpointRequest } from './checkpoint-request';

/** What the graph said about the subject: its network, and a redemption's voucher network. */
export interface GraphAnswer {
  network: GraphNetworkFeaturesReply | null;
  voucherNetwork: VoucherNetworkSignal | null;
}

/** The graph's part of a checkpoint's facts, asked over the bus. */
export class GraphFacts {
  /** One warning per outage of the graph, with a count, not one per checkpoint scored without it. */
  private readonly outages: OutageLog;

  constructor(
    private readonly bus: MessageBus,
    private readonly config: RingfenceConfig,
    logger: Logger,
  ) {
    this.outages = new OutageLog(logger, { effect: 'checkpoints scored without the graph (network features, voucher network)' });
  }

  /**
   * What the graph says within half the checkpoint's budget: the subject's network, with this
   * request's links applied first; then, for a voucher redemption, the voucher check's count of
   * the code's successful uses in the redeemer's network, this redemption included (asked after
   * the network, so that the request's own links and redemption are in the graph). Neither may
   * sink the checkpoint: what does not answer in time is left out (null; logged).
   */
  async of<R extends CheckpointRpcTopic>(
    definition: CheckpointDefinition<R>,
    message: MessageEnvelope<RpcTopicMap[R]['request']>,
    request: CheckpointRequest<R>,
  ): Promise<GraphAnswer> {
    const { subject, settings } = request;
    const deadline = Date.now() + Math.max(1, Math.floor(this.config.rpcTimeoutMs / 2));
    const network = await this.networkOf(definition, message, request, deadline);
    const voucher = definition.voucherUse?.(message.payload) ?? null;
    if (voucher === null || network === null || subject.kind !== 'customer') return { network, voucherNetwork: null };
    if (settings.voucherAbuseEnabled === false) return { network, voucherNetwork: null };
    const policy = voucherCheckPolicy(settings, { voucherType: voucher.voucherType });
    try {
      const { uses } = await this.bus.request(
        RpcTopics.graphVoucherUses,
        { ...message, eventId: newEventId(), payload: { customerId: subject.id, voucherCode: voucher.voucherCode, depth: policy.depth } },
        { timeoutMs: Math.max(1, deadline - Date.now()) },
      );
      return { network, voucherNetwork: { uses, threshold: policy.threshold, abuse: voucherCheckRecommendation(uses, policy) === 'ABUSE' } };
    } catch (error) {
      this.outages.failed(unansweredGraph(error), { checkpoint: definition.checkpoint, traceId: message.traceId, err: error, without: 'the voucher network' });
      return { network, voucherNetwork: null };
    }
  }

  /**
   * The subject's network (a customer's or a supplier's) from the graph service, with this
   * request's own links applied first, and its merchant's fraud rate. The graph informs the score but must not sink the
   * checkpoint: when it does not answer by `deadline`, the subject is scored without it (null; logged).
   */
  private async networkOf<R extends CheckpointRpcTopic>(
    definition: CheckpointDefinition<R>,
    message: MessageEnvelope<unknown>,
    { subject, merchantId, timestamp: nowMs }: CheckpointRequest<R>,
    deadline: number,
  ): Promise<GraphNetworkFeaturesReply | null> {
    try {
      const network = await this.bus.request(
        RpcTopics.graphNetworkFeatures,
        {
          ...message,
          eventId: newEventId(),
          payload: { customerId: subject.id, subjectKind: subject.kind, nowMs, ...(merchantId === undefined ? {} : { merchantId }) },
        },
        { timeoutMs: Math.max(1, deadline - Date.now()) },
      );
      this.outages.answered();
      return network;
    } catch (error) {
      // The account holds its share of the graph (ADR-0016): the checkpoint is refused, not scored without its network.
      if (error instanceof BusRemoteError && error.status === 429) throw error;
      this.outages.failed(unansweredGraph(error), { checkpoint: definition.checkpoint, traceId: message.traceId, err: error, without: 'network features' });
      return null;
    }
  }
}

/** The graph, or what the graph's failed reply says it waited for (a consumer group: `unanswered`). */
function unansweredGraph(error: unknown): string {
  const unanswered = error instanceof BusRemoteError ? (error.unanswered ?? []) : [];
  return unanswered.length === 0 ? 'graph' : `${unanswered.join(' and ')} (for graph)`;
}
