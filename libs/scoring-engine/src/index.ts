export * from './customer-features';
export * from './customer-score';
export * from './checkpoint-signals';
export * from './currency-amounts';
export * from './decision';
