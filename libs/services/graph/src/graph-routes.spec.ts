import { StateGroups } from '@ringfence/contracts';
import { GRAPH_ROUTES } from './graph-routes';

describe('GRAPH_ROUTES', () => {
  it('consumes exactly the topics that graph queries wait for (read your writes)', () => {
    expect(GRAPH_ROUTES.map((route) => route.topic).sort()).toEqual([...StateGroups.graph.topics].sort());
  });
});
