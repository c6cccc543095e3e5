import { RULE_CHECKPOINTS, type RuleCheckpoint, scoringCheckpointOf } from '@ringfence/contracts';
import { featureDeclarations } from '../features';
import { RuleEnvironment } from './rule-environment';

// Where the services find it with the rule environments (the list and its mapping live in the contracts).
export { scoringCheckpointOf };

/**
 * One CEL environment per rule checkpoint, each declaring the features its checkpoint computes
 * (the catalogue's declarations), so a rule cannot name a feature its checkpoint never has.
 */
export class RuleEnvironments {
  private readonly environments: ReadonlyMap<RuleCheckpoint, RuleEnvironment>;

  constructor() {
    this.environments = new Map(RULE_CHECKPOINTS.map((checkpoint) => [checkpoint, new RuleEnvironment(featureDeclarations(scoringCheckpointOf(checkpoint)))]));
  }

  of(checkpoint: RuleCheckpoint): RuleEnvironment {
    const environment = this.environments.get(checkpoint);
    if (environment === undefined) throw new Error(`no rule environment for checkpoint ${checkpoint}`);
    return environment;
  }
}
