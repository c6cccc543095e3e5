import type { Checkpoint } from '@ringfence/contracts';
import { CHECKPOINT_FEATURES } from './checkpoint-features';
import { DEVICE_FEATURES } from './device-features';
import { ALL_CHECKPOINTS, defineFeature, type FeatureDefinition, type FeatureInputs, type FeatureType, type FeatureValue } from './feature-definition';
import { FeatureSource } from './feature-source';
import { FeatureLayout, FeatureVector } from './feature-vector';
import { HISTORY_FEATURES } from './history-features';
import { IDENTITY_FEATURES } from './identity-features';
import { LOOKUP_FEATURES, NETWORK_FEATURES } from './network-features';
import { PAYMENT_FEATURES } from './payment-features';
import { SDK_FEATURES } from './sdk-features';
import { VELOCITY_FEATURE_DEFINITIONS } from '../velocity/velocity-dimensions';

/** The velocity counters as catalogue features: computed by the scoring service's counters, read here from the inputs. */
const VELOCITY_FEATURES: readonly FeatureDefinition[] = VELOCITY_FEATURE_DEFINITIONS.map((definition) =>
  defineFeature({ ...definition, compute: (source) => source.inputs.velocity?.[definition.name] ?? null }),
);

/** A named group of the catalogue, in the order docs/features.md lists them. */
export interface FeatureGroup {
  title: string;
  summary: string;
  features: readonly FeatureDefinition[];
}

/**
 * The feature catalogue: one source of truth for what each feature is called, its type, what
 * it means and where it is computed. docs/features.md is generated from it, the rules declare
 * their `features` from it, and every decision event records its values. Velocity counters and
 * fraud rates (state kept across events) join it as further groups.
 */
export const FEATURE_GROUPS: readonly FeatureGroup[] = [
  { title: 'Identity', summary: 'The subject (customer, or supplier at payouts and supplier registrations) as stored, merged with the request.', features: IDENTITY_FEATURES },
  { title: 'Device', summary: 'The request\'s device, its IP address and user agent.', features: DEVICE_FEATURES },
  {
    title: 'Client SDK: device and session',
    summary: 'What the client SDKs (docs/web-sdk.md) reported of the checkpoint\'s device and its sessions: the browser\'s own facts, its pages and pastes, the customers and cards seen with it, from ingestion\'s device read model as it stands when the checkpoint is scored: in order of arrival rather than event time, so a backfill sends a device\'s client events before the checkpoints that follow them.',
    features: SDK_FEATURES,
  },
  { title: 'Payment', summary: 'The card and the processor\'s checks (PSP transactions), the cards money goes to, and the amount in its own currency.', features: PAYMENT_FEATURES },
  { title: 'Refunds, payouts, registrations, voucher redemptions', summary: 'What only one checkpoint carries.', features: CHECKPOINT_FEATURES },
  { title: 'Network', summary: 'The graph\'s view of the subject, after this request\'s own links.', features: NETWORK_FEATURES },
  { title: 'Lookup', summary: 'Known-fraud indicators among the request\'s e-mail, telephone, IP address and payment instruments.', features: LOOKUP_FEATURES },
  {
    title: 'Against history',
    summary: 'A payment against what came before it, read from the velocity counters before this event (so in event time, never the future): its amount against the card\'s and the customer\'s usual amounts, the merchant\'s and the card\'s disputed payments as known at the event, a card new to the merchant; and the event\'s local time in the account\'s time zone.',
    features: HISTORY_FEATURES,
  },
  {
    title: 'Velocity',
    summary: 'Counts, sums and distinct counts per customer, card, device, e-mail, phone, IP address and merchant over 1 h, 24 h, 7 d and 30 d of event time, before this event (libs/scoring-engine/src/velocity/README.md); null while the counters load after a start, or when the request names no key of the dimension.',
    features: VELOCITY_FEATURES,
  },
];

export const FEATURE_CATALOGUE: readonly FeatureDefinition[] = FEATURE_GROUPS.flatMap((group) => group.features);

/** Each checkpoint's features, in catalogue order, resolved once. */
const FEATURES_BY_CHECKPOINT: ReadonlyMap<Checkpoint, readonly FeatureDefinition[]> = new Map(
  ALL_CHECKPOINTS.map((checkpoint) => [checkpoint, FEATURE_CATALOGUE.filter((feature) => feature.checkpoints.includes(checkpoint))]),
);

const featuresOf = (checkpoint: Checkpoint): readonly FeatureDefinition[] => FEATURES_BY_CHECKPOINT.get(checkpoint) ?? [];

/** Each checkpoint's vector layout: its features' names in catalogue order. */
const LAYOUTS: ReadonlyMap<Checkpoint, FeatureLayout> = new Map(
  ALL_CHECKPOINTS.map((checkpoint) => [checkpoint, new FeatureLayout(checkpoint, featuresOf(checkpoint).map((feature) => feature.name))]),
);

/**
 * The feature vector of one checkpoint: every feature its checkpoint computes, in catalogue
 * order (`FeatureVector`, read by name); null where the data it needs is missing. Pure, no
 * state across events.
 */
export function computeFeatureVector(inputs: FeatureInputs): FeatureVector {
  const source = new FeatureSource(inputs);
  const features = featuresOf(inputs.checkpoint);
  const values = new Array<FeatureValue>(features.length);
  for (let position = 0; position < features.length; position += 1) values[position] = features[position].compute(source);
  return new FeatureVector(LAYOUTS.get(inputs.checkpoint) ?? new FeatureLayout(inputs.checkpoint, []), values);
}

/** The feature vector of one checkpoint as a record by name (`computeFeatureVector`'s `toRecord`). */
export function computeFeatures(inputs: FeatureInputs): Readonly<Record<string, FeatureValue>> {
  return computeFeatureVector(inputs).toRecord();
}

/** What the rules engine declares and the docs list: a feature without its computation. */
export interface FeatureDeclaration {
  name: string;
  type: FeatureType;
  description: string;
  checkpoints: readonly Checkpoint[];
}

/** Every feature's name, type, meaning and checkpoints; only those of `checkpoint` when given. */
export function featureDeclarations(checkpoint?: Checkpoint): FeatureDeclaration[] {
  const features = checkpoint === undefined ? FEATURE_CATALOGUE : featuresOf(checkpoint);
  return features.map(({ name, type, description, checkpoints }) => ({ name, type, description, checkpoints }));
}
