export * from './decision-record';
