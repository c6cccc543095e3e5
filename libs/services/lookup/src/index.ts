export * from './lookup.module';
export * from './breached-credentials-internal.controller';
