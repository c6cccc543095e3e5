import { Module } from '@nestjs/common';
import { EntityDocumentsResponder } from './entity-documents.responder';
import { EntityIngestHandler } from './entity-ingest.handler';
import { DeviceEventsHandler } from './device-events.handler';
import { DeviceReadModel } from './device-read-model';
import { DeviceReadResponder } from './device-read.responder';
import { EntityStoreModule } from '@ringfence/entity-store';

/** Consumes the ingest topics and keeps the entity store and the device read models, which it alone reads and writes. */
@Module({
  imports: [EntityStoreModule],
  controllers: [EntityIngestHandler, EntityDocumentsResponder, DeviceEventsHandler, DeviceReadResponder],
  providers: [DeviceReadModel],
  exports: [DeviceReadModel],
})
export class IngestionModule {}
