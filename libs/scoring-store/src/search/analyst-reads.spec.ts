import { useEmbeddedTestDatabase } from '@ringfence/persistence/testing';
import { SCORING_STORE_SCHEMA } from '../scoring-store.schema';
import { itServesTheAnalystsReads } from '../test-support/analyst-reads.behaviour';

describe('the analysts\' reads of scoring\'s store (PGlite)', () => {
  const database = useEmbeddedTestDatabase(SCORING_STORE_SCHEMA);

  itServesTheAnalystsReads(() => database.dataSource());
});
