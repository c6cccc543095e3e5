export * from './currency-amounts';
export * from './decision';
export * from './features';
export * from './model/score-model';
export * from './rules';
export * from './decisions';
export * from './velocity';
export * from './optimisation/transaction-optimisation';
