import type { OwnedSchema } from '@ringfence/persistence';
import { Rules1764500000000 } from './migrations/1764500000000-rules.migration';
import { DecisionRecords1764510000000 } from './migrations/1764510000000-decision-records.migration';
import { Velocity1764710000000 } from './migrations/1764710000000-velocity.migration';
import { StoredJsonAsText1764800000000 } from './migrations/1764800000000-stored-json-as-text.migration';
import { Models1765000000000 } from './migrations/1765000000000-models.migration';
import { DecisionRecordListing1765100000000 } from './migrations/1765100000000-decision-record-listing.migration';
import { RuleSuspensions1765810000000 } from './migrations/1765810000000-rule-suspensions.migration';
import { ModelCandidates1765860000000 } from './migrations/1765860000000-model-candidates.migration';
import { DecisionSearchKeys1766120370000 } from './migrations/1766120370000-decision-search-keys.migration';
import { RuleHitsAndAuthors1767050000000 } from './migrations/1767050000000-rule-hits-and-authors.migration';
import { DecisionFacts1767060000000 } from './migrations/1767060000000-decision-facts.migration';

/** The scoring service's tables: rules, decision records, models and the velocity counters. No entities: the adapters write raw SQL. */
export const SCORING_STORE_SCHEMA: OwnedSchema = {
  owner: 'scoring',
  entities: [],
  migrations: [Rules1764500000000, DecisionRecords1764510000000, Velocity1764710000000, StoredJsonAsText1764800000000, Models1765000000000, DecisionRecordListing1765100000000, RuleSuspensions1765810000000, ModelCandidates1765860000000, DecisionSearchKeys1766120370000, RuleHitsAndAuthors1767050000000, DecisionFacts1767060000000],
};
