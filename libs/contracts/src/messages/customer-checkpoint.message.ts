import type { CustomerRecommendationDto } from '../http/responses/customer-recommendation.response';
import { CustomerUpdatedEvent } from './customer-updated.event';

/**
 * `ringfence.rpc.scoring.customer-checkpoint.v1`: score a customer at the customer checkpoint.
 * It carries the same payload as the ingest event so the recommendation reflects this request's
 * data even before ingestion has stored it (read your own writes).
 */
export class CustomerCheckpointRequest extends CustomerUpdatedEvent {}

export type CustomerCheckpointReply = CustomerRecommendationDto;
