import { Module } from '@nestjs/common';
import { FraudSubjectsHandler } from './fraud-subjects.handler';
import { LabelRequestsHandler } from './label-requests.handler';
import { LabelStoreModule } from '@ringfence/label-store';

/**
 * Customer and supplier labels with their audit log: answers the apply and read requests and
 * publishes every applied review. Needs the runtime, persistence and bus modules (global).
 */
@Module({ imports: [LabelStoreModule], controllers: [LabelRequestsHandler, FraudSubjectsHandler] })
export class LabellingModule {}
