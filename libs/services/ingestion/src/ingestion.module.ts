import { Module } from '@nestjs/common';
import { CustomerIngestHandler } from './customer-ingest.handler';
import { TransactionIngestHandler } from './transaction-ingest.handler';

/** Consumes the ingest topics and keeps the entity store. */
@Module({ providers: [CustomerIngestHandler, TransactionIngestHandler] })
export class IngestionModule {}
