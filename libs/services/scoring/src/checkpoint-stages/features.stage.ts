import type { Checkpoint } from '@ringfence/contracts';
import type { EntityDocument } from '@ringfence/entities';
import type { CheckpointLookup } from '@ringfence/lookup';
import { type FeatureVector, type SdkDeviceInput, computeFeatureVector } from '@ringfence/scoring-engine';
import type { CheckpointRequest } from './checkpoint-request';
import type { GraphAnswer } from './graph-facts';

/**
 * The features stage: the checkpoint's feature vector (docs/features.md) over the subject as
 * stored merged with the request (`fields`, of `subject`), the graph's answer, the lookup's, the
 * velocity counters and the device read model's summary of the checkpoint's device. The vector stays an array in catalogue order (`FeatureVector`) along the
 * checkpoint's path: the model and the answer read it by name, and a record of every feature is
 * built only for a reader that needs one (a learned model, the rules).
 */
export function checkpointFeatures(
  checkpoint: Checkpoint,
  request: CheckpointRequest,
  subject: EntityDocument | null,
  fields: Record<string, unknown>,
  { network, voucherNetwork }: GraphAnswer,
  lookup: CheckpointLookup,
  velocity: Readonly<Record<string, number | null>> | null,
  sdkDevice: SdkDeviceInput | null = null,
): FeatureVector {
  return computeFeatureVector({
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
    sdkDevice,
  });
}
