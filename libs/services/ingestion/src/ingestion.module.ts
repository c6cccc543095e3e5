import { Module } from '@nestjs/common';
import { EntityIngestHandler } from './entity-ingest.handler';

/** Consumes the ingest topics and keeps the entity store. */
@Module({ providers: [EntityIngestHandler] })
export class IngestionModule {}
