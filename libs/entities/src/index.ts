export * from './entity-document';
export * from './merge-document';
