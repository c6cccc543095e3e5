export * from './config/ringfence-config';
export * from './errors/app-error';
export * from './errors/error-envelope';
export * from './ids/ids';
export * from './logging/logger';
export * from './time/normalise-timestamp';
