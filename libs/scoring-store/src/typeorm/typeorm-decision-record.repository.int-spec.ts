import { itBehavesLikeADecisionRecordRepository } from '../test-support/decision-record-repository.behaviour';
import { usePostgresTestDatabase } from '@ringfence/persistence/testing';
import { TypeOrmDecisionRecordRepository } from './typeorm-decision-record.repository';

describe(TypeOrmDecisionRecordRepository.name, () => {
  const database = usePostgresTestDatabase();

  itBehavesLikeADecisionRecordRepository(() => new TypeOrmDecisionRecordRepository(database.dataSource()));
});
