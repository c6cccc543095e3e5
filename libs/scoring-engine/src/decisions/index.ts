export * from './decision-record';
export * from './decision-stats';
