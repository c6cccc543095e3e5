export * from './velocity-window-definitions';
export * from './velocity-dimensions';
export * from './velocity-events';
export * from './velocity-buckets';
export * from './velocity-features';
export * from './occurrence-registry';
export { EXACT_DISTINCT_LIMIT } from './distinct-sketch';
