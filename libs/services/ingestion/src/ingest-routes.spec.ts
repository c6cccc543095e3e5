import { StateGroups } from '@ringfence/contracts';
import { INGEST_ROUTES } from './ingest-routes';

describe('INGEST_ROUTES', () => {
  it('consumes exactly the topics that readers of the entity store wait for (read your writes)', () => {
    expect(INGEST_ROUTES.map((route) => route.topic).sort()).toEqual([...StateGroups.ingestion.topics].sort());
  });
});
