export * from './message-bus.patterns';
export * from './message-bus.context';
export * from './message-bus.exception-filter';
export * from './message-bus.controller';
export * from './message-bus.server';
export * from './message-bus.client';
export * from './connect-message-bus';
