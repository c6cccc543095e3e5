import { itBehavesLikeARuleRepository } from '../test-support/rule-repository.behaviour';
import { usePostgresTestDatabase } from '@ringfence/persistence/testing';
import { TypeOrmRuleRepository } from './typeorm-rule.repository';

describe(TypeOrmRuleRepository.name, () => {
  const database = usePostgresTestDatabase();

  itBehavesLikeARuleRepository(() => new TypeOrmRuleRepository(database.dataSource()));
});
