import { EventTopics, LabelUpdatedEvent, PAYLOAD_ROUTE_LIST, StateGroups } from '@ringfence/contracts';
import { GRAPH_ROUTES, graphRouteOf } from './graph-routes';

describe('GRAPH_ROUTES', () => {
  it('consumes exactly the topics that graph queries wait for (read your writes)', () => {
    expect(GRAPH_ROUTES.map((route) => route.topic).sort()).toEqual([...StateGroups.graph.topics].sort());
  });

  it('validates each ingest topic as the payload class of the contracts’ payload table, and labels as label events', () => {
    for (const row of PAYLOAD_ROUTE_LIST) expect(graphRouteOf(row.ingestTopic)?.payloadClass).toBe(row.payloadClass);
    expect(graphRouteOf(EventTopics.customerLabelUpdated)?.payloadClass).toBe(LabelUpdatedEvent);
  });
});
