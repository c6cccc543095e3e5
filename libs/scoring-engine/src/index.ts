export * from './customer-features';
export * from './customer-score';
