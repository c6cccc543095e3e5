import type { Checkpoint } from '@ringfence/contracts';
import type { EntityDocument } from '@ringfence/entities';
import type { CheckpointLookup } from '@ringfence/lookup';
import { type FeatureValue, computeFeatures } from '@ringfence/scoring-engine';
import type { CheckpointRequest } from './checkpoint-request';
import type { GraphAnswer } from './graph-facts';

/**
 * The features stage: the checkpoint's feature vector (docs/features.md) over the subject as
 * stored merged with the request (`fields`, of `subject`), the graph's answer, the lookup's and the velocity counters.
 */
export function checkpointFeatures(
  checkpoint: Checkpoint,
  request: CheckpointRequest,
  subject: EntityDocument | null,
  fields: Record<string, unknown>,
  { network, voucherNetwork }: GraphAnswer,
  lookup: CheckpointLookup,
  velocity: Readonly<Record<string, number | null>> | null,
): Record<string, FeatureValue> {
  return computeFeatures({
    checkpoint,
    payload: request.json,
    facts: request.facts,
    subjectKind: request.subject.kind,
    subject: fields,
    subjectFieldTimestamps: subject?.fieldTimestamps ?? {},
    eventTimeMs: request.timestamp,
    network,
    lookup: lookup.features,
    voucherNetwork,
    velocity,
    timeZone: request.settings.timeZone,
  });
}
