import type { OwnedSchema } from '@ringfence/persistence';
import { LookupEvidenceEntity, LookupIndicatorEntity } from './entities/lookup-indicator.entity';
import { LookupIndicators1764200000000 } from './migrations/1764200000000-lookup-indicators.migration';
import { LookupEvidenceIndustry1765600000000 } from './migrations/1765600000000-lookup-evidence-industry.migration';
import { LookupIndicatorsWithoutAccountKey1765700000000 } from './migrations/1765700000000-lookup-indicators-without-account-key.migration';

/** The lookup service's tables: `lookup_indicators` and `lookup_evidence`. */
export const LOOKUP_STORE_SCHEMA: OwnedSchema = {
  owner: 'lookup',
  entities: [LookupIndicatorEntity, LookupEvidenceEntity],
  migrations: [LookupIndicators1764200000000, LookupEvidenceIndustry1765600000000, LookupIndicatorsWithoutAccountKey1765700000000],
};
