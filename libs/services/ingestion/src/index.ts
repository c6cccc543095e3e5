export * from './ingestion.module';
export { EntityIngestHandler } from './entity-ingest.handler';
