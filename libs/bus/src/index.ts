export * from './message-bus';
export * from './bus-errors';
export * from './event-log';
