export * from './username';
export * from './password-hash';
export * from './common-passwords';
export * from './breached-credentials.repository';
export * from './credentials-check';
export * from './breach-line';
export * from './store';
export * from './remote-breached-credentials.repository';
