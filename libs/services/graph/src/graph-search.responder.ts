import { MessagePattern, Payload } from '@nestjs/microservices';
import { MessageBusController } from '@ringfence/bus';
import { type GraphSearchKind, GraphSearchRequest, type MessageEnvelope, RpcTopics, StateGroups, type SubjectMatchMessage, type SubjectSearchReply } from '@ringfence/contracts';
import { type NodeKind, emailIdentity, phoneIdentity, subjectsAt } from '@ringfence/graph-engine';
import { validatedRequestHandler } from '@ringfence/service-runtime';
import { graphQueryDuration } from './graph-metrics';
import { TenantGraphs } from './tenant-graphs.service';

/** The graph node a search reading looks up: the node kind and the identity the graph keys it by (ADR-0004), or null when the text names none. */
export function searchNode(kind: GraphSearchKind, value: string): { kind: NodeKind; identity: string } | null {
  switch (kind) {
    case 'customerId':
      return { kind: 'customer', identity: value };
    case 'supplierId':
      return { kind: 'supplier', identity: value };
    case 'email': {
      const identity = emailIdentity(value);
      return identity === null ? null : { kind: 'email', identity };
    }
    case 'phone': {
      const identity = phoneIdentity(value);
      return identity === null ? null : { kind: 'phone', identity };
    }
    case 'device':
      return { kind: 'device', identity: value };
    case 'instrument':
      return { kind: 'card', identity: `instrument:${value}` };
  }
}

/**
 * Answers `ringfence.rpc.graph.search.v1` (responder group `graph`, after the graph has handled
 * the account's earlier writes): the subjects with the id searched, or linked to the e-mail,
 * phone, device or card instrument searched, each an index lookup (ADR-0014). Each subject
 * comes once, by the first reading that found it.
 */
@MessageBusController()
export class GraphSearchResponder {
  private readonly validatedSearch = validatedRequestHandler(GraphSearchRequest, (valid) => this.search(valid));

  constructor(private readonly graphs: TenantGraphs) {}

  @MessagePattern(RpcTopics.graphSearch, { group: 'graph', consistentWith: [StateGroups.graph] })
  answerSearch(@Payload() message: MessageEnvelope<unknown>): Promise<SubjectSearchReply> {
    return this.validatedSearch(message);
  }

  async search({ accountId, environment, payload }: MessageEnvelope<GraphSearchRequest>): Promise<SubjectSearchReply> {
    const graph = await this.graphs.get(accountId, environment);
    const timer = graphQueryDuration.startTimer({ query: 'search' });
    try {
      const matches: SubjectMatchMessage[] = [];
      const seen = new Set<string>();
      for (const candidate of payload.candidates) {
        const node = searchNode(candidate.kind, candidate.value);
        if (node === null) continue;
        for (const hit of subjectsAt(graph.index, node.kind, node.identity, payload.limit - matches.length)) {
          const key = `${hit.kind}:${hit.identity}`;
          if (seen.has(key)) continue;
          seen.add(key);
          const value = node.kind === 'card' ? candidate.value : node.identity;
          matches.push({ subjectType: hit.kind, subjectId: hit.identity, matched: { kind: candidate.kind, value } });
        }
      }
      return { matches };
    } finally {
      timer();
    }
  }
}
