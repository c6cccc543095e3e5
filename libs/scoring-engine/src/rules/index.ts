export * from './rule';
export * from './rule-context';
export * from './rule-environment';
export * from './rule-evaluation';
export * from './rule-environments';
