import { itBehavesLikeADecisionRecordRepository } from '../test-support/decision-record-repository.behaviour';
import { usePostgresTestDatabase } from '@ringfence/persistence/testing';
import { TypeOrmDecisionRecordRepository } from './typeorm-decision-record.repository';
import { SCORING_STORE_SCHEMA } from '../scoring-store.schema';

describe(TypeOrmDecisionRecordRepository.name, () => {
  const database = usePostgresTestDatabase(SCORING_STORE_SCHEMA);

  itBehavesLikeADecisionRecordRepository(() => new TypeOrmDecisionRecordRepository(database.dataSource()));
});
