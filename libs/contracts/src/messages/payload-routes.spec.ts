import { CHECKPOINTS } from '../checkpoints/checkpoint-names';
import { ENTITY_INGEST_TOPICS, PAYLOAD_ROUTES, PAYLOAD_ROUTE_LIST, StateGroups } from './payload-routes';
import { EVENT_PAYLOAD_CLASSES } from './topic-payloads';
import { EventTopics, RpcTopics } from './topics';

describe('PAYLOAD_ROUTES', () => {
  it('lists the checkpoints in the order the decision schema documents them', () => {
    expect(CHECKPOINTS).toEqual(['customer', 'registration', 'payout', 'refund', 'voucherRedemption', 'transaction']);
  });

  it('names each checkpoint route after its checkpoint, with a request topic and a decision topic', () => {
    for (const [name, row] of Object.entries(PAYLOAD_ROUTES)) {
      if (!('checkpoint' in row)) continue;
      expect(row.checkpoint).toBe(name);
      expect(Object.values(RpcTopics)).toContain(row.rpcTopic);
      expect(row.decisionTopic).toMatch(/^ringfence\.decision\./);
    }
  });

  it('validates each ingest topic as the class the topic catalogue publishes for it', () => {
    for (const row of PAYLOAD_ROUTE_LIST) expect(row.payloadClass).toBe(EVENT_PAYLOAD_CLASSES[row.ingestTopic]);
  });

  it('gives every path and every ingest topic to one route only', () => {
    const paths = PAYLOAD_ROUTE_LIST.flatMap((row) => row.paths);
    expect(new Set(paths).size).toBe(paths.length);
    expect(new Set(ENTITY_INGEST_TOPICS).size).toBe(ENTITY_INGEST_TOPICS.length);
  });

  it('feeds the consistency groups: ingestion from every ingest topic, the graph from those and the customer labels', () => {
    expect(StateGroups.ingestion.topics).toEqual(ENTITY_INGEST_TOPICS);
    expect(StateGroups.graph.topics).toEqual([...ENTITY_INGEST_TOPICS, EventTopics.customerLabelUpdated]);
  });
});
