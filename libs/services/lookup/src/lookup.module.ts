import { Module } from '@nestjs/common';
import { LookupIndicatorsHandler } from './lookup-indicators.handler';
import { LookupStoreModule } from '@ringfence/lookup-store';

/**
 * The lookup service: answers the known-fraud indicator requests (add, read, delete) and
 * publishes additions and deletions on the warehouse feed. The breached-credentials check is
 * deliberately not here: it never crosses the bus (see README).
 */
@Module({ imports: [LookupStoreModule], controllers: [LookupIndicatorsHandler] })
export class LookupModule {}
