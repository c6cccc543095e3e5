export * from './ingestion.module';
export { EntityIngestHandler } from './entity-ingest.handler';
export { DeviceReadModel } from './device-read-model';
