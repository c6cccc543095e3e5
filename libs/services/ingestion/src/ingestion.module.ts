import { Module } from '@nestjs/common';
import { EntityIngestHandler } from './entity-ingest.handler';

/** Consumes the ingest topics and keeps the entity store. */
@Module({ controllers: [EntityIngestHandler] })
export class IngestionModule {}
