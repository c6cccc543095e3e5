export * from './rule';
export * from './rule-context';
export * from './rule-environment';
export * from './rule-evaluation';
export * from './rule-environments';
export * from './rule-budget';
export * from './linear-regex';
export * from './bounded-payload';
