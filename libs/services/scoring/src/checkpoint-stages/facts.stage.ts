import type { CheckpointRpcTopic, CurrentLabelMessage, LabelCategory, MessageEnvelope, RpcTopicMap } from '@ringfence/contracts';
import type { EntityDocument } from '@ringfence/entities';
import { type CheckpointIndicatorEvidence, type CheckpointLookup, type KnownIndicatorQuery, checkpointLookup } from '@ringfence/lookup';
import type { CheckpointDefinition } from '../checkpoint-definition';
import type { CheckpointFacts } from '../checkpoint-facts';
import { evidenceOf, indicatorsNotIn } from '../payload-indicators';
import type { SdkDeviceInput } from '@ringfence/scoring-engine';
import type { CheckpointRequest } from './checkpoint-request';
import type { DeviceFacts } from './device-facts';
import type { GraphAnswer, GraphFacts } from './graph-facts';

/**
 * The owners' answers, asked at once: the entities as stored, the subject's labels, the graph,
 * the lookup's evidence of the request's indicators, the device read model's summary of the
 * checkpoint's device (null: none, or no answer in time).
 */
export type OwnersFacts = [
  entities: { subject: EntityDocument | null; references: (EntityDocument | null)[] },
  labels: Partial<Record<LabelCategory, CurrentLabelMessage>>,
  graph: GraphAnswer,
  requestEvidence: CheckpointIndicatorEvidence[],
  device: SdkDeviceInput | null,
];

/**
 * The facts stage: what scoring decides with and does not own, asked of the services that own
 * it (`CheckpointFacts`, `GraphFacts`). Each method hands back its owners' promise as it is, so
 * the stage adds no await of its own to the checkpoint's path.
 */
export class FactsStage {
  constructor(
    private readonly owners: CheckpointFacts,
    private readonly graph: GraphFacts,
    private readonly devices: DeviceFacts,
  ) {}

  /** Everything the request itself names, asked of every owner at once. */
  askOwners<R extends CheckpointRpcTopic>(definition: CheckpointDefinition<R>, message: MessageEnvelope<RpcTopicMap[R]['request']>, request: CheckpointRequest<R>): Promise<OwnersFacts> {
    const { subject, references, indicators, lookupPolicy } = request;
    const entities = this.owners.entities(message, subject, references);
    return Promise.all([
      entities,
      this.owners.currentLabels(message, subject),
      this.graph.of(definition, message, request),
      this.owners.lookupEvidence(message, indicators, lookupPolicy.limitIndustry),
      // The customer's last device is read from the stored subject, so its ask follows the entities'.
      this.devices.of(definition.checkpoint, message, request, entities),
    ]);
  }

  /** The evidence of the indicators only the stored subject adds to the request's (asked once it is read). */
  storedOnlyEvidence(message: MessageEnvelope<unknown>, request: CheckpointRequest, indicators: KnownIndicatorQuery): Promise<CheckpointIndicatorEvidence[]> {
    return this.owners.lookupEvidence(message, indicatorsNotIn(indicators, request.indicators), request.lookupPolicy.limitIndustry);
  }
}

/**
 * What the lookup says of the subject's indicators: a request value the stored subject overrides
 * (a newer e-mail stored) is not the subject's, so only the evidence of `indicators` counts.
 */
export function lookupOf(
  request: CheckpointRequest,
  requestEvidence: readonly CheckpointIndicatorEvidence[],
  indicators: KnownIndicatorQuery,
  storedOnlyEvidence: readonly CheckpointIndicatorEvidence[],
): CheckpointLookup {
  return checkpointLookup([...evidenceOf(requestEvidence, indicators), ...storedOnlyEvidence], request.lookupPolicy, request.timestamp);
}
