import { itBehavesLikeARuleRepository } from '../test-support/rule-repository.behaviour';
import { useEmbeddedTestDatabase } from '@ringfence/persistence/testing';
import { TypeOrmRuleRepository } from './typeorm-rule.repository';

describe(TypeOrmRuleRepository.name, () => {
  const database = useEmbeddedTestDatabase();

  itBehavesLikeARuleRepository(() => new TypeOrmRuleRepository(database.dataSource()));
});
