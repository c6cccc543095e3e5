import { Module } from '@nestjs/common';
import { EntityDocumentsResponder } from './entity-documents.responder';
import { EntityIngestHandler } from './entity-ingest.handler';
import { EntityStoreModule } from '@ringfence/entity-store';

/** Consumes the ingest topics and keeps the entity store, which it alone reads and writes. */
@Module({ imports: [EntityStoreModule], controllers: [EntityIngestHandler, EntityDocumentsResponder] })
export class IngestionModule {}
