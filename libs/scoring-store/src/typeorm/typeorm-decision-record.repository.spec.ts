import { itBehavesLikeADecisionRecordRepository } from '../test-support/decision-record-repository.behaviour';
import { useEmbeddedTestDatabase } from '@ringfence/persistence/testing';
import { TypeOrmDecisionRecordRepository } from './typeorm-decision-record.repository';

describe(TypeOrmDecisionRecordRepository.name, () => {
  const database = useEmbeddedTestDatabase();

  itBehavesLikeADecisionRecordRepository(() => new TypeOrmDecisionRecordRepository(database.dataSource()));
});
