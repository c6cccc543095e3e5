import { ArrayMaxSize, IsArray, IsString, MaxLength, MinLength } from 'class-validator';
import { MAX_IDENTIFIER_LENGTH } from '../validation/patterns';
import type { PaymentReviewMessage } from './cases.message';

/** Payments one request may name: a backtest's or a training's page of payments is asked in reads of this many. */
export const MAX_PAYMENT_REVIEWS_PER_READ = 100;

/**
 * `ringfence.rpc.labelling.payment-reviews-of.v1`: the current (not withdrawn) analyst's review of
 * each named payment, which the labelling policy reads as what happened to it (ADR-0012). Scoring
 * asks it when it judges payment decisions for a training or a backtest; the gateway, for the
 * payments a customer's evidence lists.
 */
export class PaymentReviewsOfRequest {
  @IsArray() @ArrayMaxSize(MAX_PAYMENT_REVIEWS_PER_READ) @IsString({ each: true }) @MinLength(1, { each: true }) @MaxLength(MAX_IDENTIFIER_LENGTH, { each: true }) transactionIds!: string[];
}

/** A payment's current review: what the analyst said, who, when, and why. */
export type CurrentPaymentReview = Pick<PaymentReviewMessage, 'decision' | 'actor' | 'at' | 'comment'>;

export interface PaymentReviewsOfReply {
  /** In the order asked: each payment's current review, null when it has none (never reviewed, or withdrawn). */
  reviews: Array<CurrentPaymentReview | null>;
}
