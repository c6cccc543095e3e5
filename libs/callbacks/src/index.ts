export * from './callback-delivery';
export * from './callback-deliveries';
export * from './callback-dispatcher';
export * from './callback-sender';
export * from './callback-signature';
export * from './callback-targets';
export * from './label-changed-callback';
export * from './retry-schedule';
