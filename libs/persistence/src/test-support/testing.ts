// What the owners' tests share: databases to run against, test data, lock waits.
export * from './test-databases';
export * from './persistence-test-data.factory';
export { waitUntilBlockedBy } from './postgres-locks';
