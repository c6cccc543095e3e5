export * from './label';
export * from './label-rules';
export * from './labelling';
export * from './fraud-subjects';
