import { MessagePattern, Payload } from '@nestjs/microservices';
import { MessageBusController } from '@ringfence/bus';
import { DisputedTransactionsRequest, type DisputedTransactionsReply, type MessageEnvelope, RpcTopics, StateGroups } from '@ringfence/contracts';
import { validatedRequestHandler } from '@ringfence/service-runtime';
import { TenantGraphs } from './tenant-graphs.service';

/**
 * Answers `ringfence.rpc.graph.disputed-transactions.v1` (GET /v2/stats/overview's known fraud):
 * the tenant's PSP transactions with a dispute, from the index the `graph` group keeps (it waits
 * for the account's earlier events, like every graph query).
 */
@MessageBusController()
export class GraphDisputesResponder {
  private readonly validated = validatedRequestHandler(DisputedTransactionsRequest, async ({ accountId, environment, payload }) => {
    const graph = await this.graphs.get(accountId, environment);
    return graph.disputedTransactions(payload.limit);
  });

  constructor(private readonly graphs: TenantGraphs) {}

  @MessagePattern(RpcTopics.disputedTransactions, { group: 'graph', consistentWith: [StateGroups.graph] })
  answer(@Payload() message: MessageEnvelope<unknown>): Promise<DisputedTransactionsReply> {
    return this.validated(message);
  }
}
