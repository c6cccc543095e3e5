export type { FeatureDefinition, FeatureInputs, FeatureSourceReader, FeatureType, FeatureTypeValues, FeatureValue, ParsedEmail, ParsedUserAgent, SdkDeviceInput } from './feature-definition';
export { FEATURE_CATALOGUE, FEATURE_GROUPS, type FeatureDeclaration, type FeatureGroup, computeFeatureVector, computeFeatures, featureDeclarations } from './feature-catalogue';
export { FeatureLayout, FeatureVector } from './feature-vector';
export { loadFeatureReferenceData } from './reference-data';
export { featuresFromRecord, recordedFeatures } from './recorded-features';
export { SDK_CHECKPOINTS, SDK_FEATURES } from './sdk-features';
