export * from './account';
export * from './api-key';
export * from './account-administration';
export * from './callback-settings';
export * from './api-key-authenticator';
export * from './voucher-check-policy';
export * from './caching-api-key.repository';
export * from './caching-account.repository';
