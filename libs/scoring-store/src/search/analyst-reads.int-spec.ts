import { usePostgresTestDatabase } from '@ringfence/persistence/testing';
import { SCORING_STORE_SCHEMA } from '../scoring-store.schema';
import { itServesTheAnalystsReads } from '../test-support/analyst-reads.behaviour';

describe('the analysts\' reads of scoring\'s store (PostgreSQL)', () => {
  const database = usePostgresTestDatabase(SCORING_STORE_SCHEMA);

  itServesTheAnalystsReads(() => database.dataSource());
});
