export type { FeatureDefinition, FeatureInputs, FeatureSourceReader, FeatureType, FeatureTypeValues, FeatureValue, ParsedEmail, ParsedUserAgent } from './feature-definition';
export { FEATURE_CATALOGUE, FEATURE_GROUPS, type FeatureDeclaration, type FeatureGroup, computeFeatureVector, computeFeatures, featureDeclarations } from './feature-catalogue';
export { FeatureLayout, FeatureVector } from './feature-vector';
export { loadFeatureReferenceData } from './reference-data';
export { featuresFromRecord, recordedFeatures } from './recorded-features';
