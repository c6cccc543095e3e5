export * from './node-kind';
export * from './node-identity';
export * from './connect-features';
export * from './network-features';
export * from './graph-index';
export * from './graph-index-registry';
