export * from './entity-document';
