import { Module } from '@nestjs/common';
import { EntityDocumentsResponder } from './entity-documents.responder';
import { EntityIngestHandler } from './entity-ingest.handler';

/** Consumes the ingest topics and keeps the entity store, which it alone reads and writes. */
@Module({ controllers: [EntityIngestHandler, EntityDocumentsResponder] })
export class IngestionModule {}
