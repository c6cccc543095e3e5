export * from './entity-document';
export * from './merge-document';
export * from './entity-updates';
export * from './chargebacks';
export * from './store-entity-updates';
export * from './ingest-topic-updates';
export * from './devices';
