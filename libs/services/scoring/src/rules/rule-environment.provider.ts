import type { Provider } from '@nestjs/common';
import { RuleEnvironments } from '@ringfence/scoring-engine';

export const RULE_ENVIRONMENTS = Symbol('RuleEnvironments');

/** The CEL environments of the process, one per rule checkpoint, declared from the feature catalogue. */
export const ruleEnvironmentsProvider: Provider = { provide: RULE_ENVIRONMENTS, useFactory: () => new RuleEnvironments() };
