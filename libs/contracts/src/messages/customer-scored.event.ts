import type { CustomerRecommendationDto } from '../http/responses/customer-recommendation.response';

/** `ringfence.decision.customer.scored.v1`: every recommendation the customer checkpoint gave. */
export class CustomerScoredEvent {
  checkpoint!: 'customer';
  /** The time of the payload that was scored, epoch milliseconds. */
  timestamp!: number;
  recommendation!: CustomerRecommendationDto;
  /** The features the decision was made from, for analysts. */
  features!: Record<string, number | boolean | string | null>;
}
