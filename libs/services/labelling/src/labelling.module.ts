import { Module } from '@nestjs/common';
import { FraudSubjectsHandler } from './fraud-subjects.handler';
import { LabelRequestsHandler } from './label-requests.handler';
import { CurrentLabelsOfHandler } from './current-labels-of.handler';
import { CasesHandler } from './cases/cases.handler';
import { PaymentReviewsOfHandler } from './cases/payment-reviews-of.handler';
import { LabelStoreModule } from '@ringfence/label-store';

/**
 * Customer and supplier labels with their audit log: answers the apply and read requests and
 * publishes every applied review. Cases (ADR-0017): groups REVIEW decisions by subject and
 * answers the case and payment-review requests, and the current reviews of payments that
 * training and backtests judge by. Needs the runtime, persistence and bus modules (global).
 */
@Module({ imports: [LabelStoreModule], controllers: [LabelRequestsHandler, CasesHandler, FraudSubjectsHandler, CurrentLabelsOfHandler, PaymentReviewsOfHandler] })
export class LabellingModule {}
