import { itBehavesLikeARuleRepository } from '../test-support/rule-repository.behaviour';
import { useEmbeddedTestDatabase } from '@ringfence/persistence/testing';
import { TypeOrmRuleRepository } from './typeorm-rule.repository';
import { SCORING_STORE_SCHEMA } from '../scoring-store.schema';

describe(TypeOrmRuleRepository.name, () => {
  const database = useEmbeddedTestDatabase(SCORING_STORE_SCHEMA);

  itBehavesLikeARuleRepository(() => new TypeOrmRuleRepository(database.dataSource()));
});
