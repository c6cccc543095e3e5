export * from './message-bus';
export * from './bus-errors';
export * from './event-log';
export * from './bus-logger';
export * from './handler-retry';
export * from './rpc-failure';
export * from './in-process/in-process-message-bus';
export * from './kafka/kafka-message-bus';
