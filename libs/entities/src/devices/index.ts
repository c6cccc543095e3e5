export * from './device-record';
export * from './device-sighting';
export * from './device-summary';
export * from './device-repository';
