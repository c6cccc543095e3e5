import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches } from 'class-validator';
import { CALLBACK_DELIVERY_ID_PATTERN, CALLBACK_ERROR_CLASSES, DEFAULT_CALLBACK_DELIVERIES_PAGE, MAX_CALLBACK_DELIVERIES_PAGE } from '../../messages/callback-deliveries.message';
import { LABEL_CATEGORIES, LABEL_REVIEWS, LABEL_SUBJECT_KINDS } from '../labels/label-vocabulary';
import { IsOptionalQueryInteger } from '../shared/query-parameters';
import { ReviewerDto } from '../shared/reviewer.dto';

const ISO_TIME = { example: '2025-11-26T09:15:02.123Z' } as const;

/** `GET /v2/callbacks/deliveries`. */
export class CallbackDeliveriesQueryDto {
  @IsOptionalQueryInteger(1, MAX_CALLBACK_DELIVERIES_PAGE, `Deliveries per page, 1 to ${MAX_CALLBACK_DELIVERIES_PAGE}; default ${DEFAULT_CALLBACK_DELIVERIES_PAGE}.`, DEFAULT_CALLBACK_DELIVERIES_PAGE)
  limit?: number;

  @ApiPropertyOptional({
    example: 'dlv_4kT9QmZ2xV8bN1cR7sLp',
    description: 'A `deliveryId`: answers the deliveries recorded before it. Pass the last `deliveryId` of a page to read the next; a page shorter than `limit` is the last. 400 when it names no delivery of this data set.',
  })
  @IsOptional() @IsString() @Matches(CALLBACK_DELIVERY_ID_PATTERN, { message: 'must be a deliveryId (dlv_…)' })
  before?: string;
}

/** The body of a review callback: what the receiver gets, and what `event` of a delivery shows. */
export class LabelChangedCallbackDto {
  @ApiProperty({ enum: ['label.changed'] }) event!: 'label.changed';
  @ApiProperty({ example: 'acc_3kT9QmZ2xV8bN1cR' }) accountId!: string;
  @ApiProperty({ enum: ['test', 'live'], description: 'The data set of the key that applied the review.' }) environment!: string;
  @ApiProperty({ enum: LABEL_SUBJECT_KINDS }) subjectType!: string;
  @ApiProperty({ example: 'cus-61213' }) subjectId!: string;
  @ApiProperty({ enum: LABEL_CATEGORIES }) category!: string;
  @ApiProperty({ enum: LABEL_REVIEWS, description: 'UNREVIEWED: the category was cleared.' }) review!: string;
  @ApiProperty({ enum: LABEL_REVIEWS, nullable: true, type: String, description: "The category's label before; null when it had none." }) previous!: string | null;
  @ApiProperty({ type: () => ReviewerDto, nullable: true }) reviewer!: ReviewerDto | null;
  @ApiProperty({ type: String, nullable: true }) comment!: string | null;
  @ApiProperty({ ...ISO_TIME, description: 'When the review was applied: ISO 8601 UTC with milliseconds and `Z`, as the label API answers it.' }) eventTime!: string;
}

export class CallbackAttemptDto {
  @ApiProperty({ ...ISO_TIME, description: 'When the attempt started.' }) at!: string;
  @ApiProperty({ type: 'integer', nullable: true, example: 500, description: "The receiver's status; null when no answer came." }) httpStatus!: number | null;
  @ApiProperty({
    enum: CALLBACK_ERROR_CLASSES,
    nullable: true,
    example: 'timeout',
    description:
      'Why the attempt got no 2xx; null after one. `status`: the receiver answered another status (see `httpStatus`; redirects are not followed). `timeout`: no answer within 10 s. `refused`: connection refused. `tls`: the handshake failed or the certificate did not verify. `address`: the host resolved to an address callbacks may not reach (only public internet addresses). `dns`: the host did not resolve. `connection`: reset or closed before an answer. `interrupted`: the service stopped mid-attempt. Nothing sent: `no-url` (the data set\'s callbacks were turned off; the delivery is given up), `no-secret`, `not-signed` (the signature could not be had). The network\'s own messages are never shown.',
  })
  error!: string | null;
  @ApiProperty({ type: 'integer', example: 37 }) durationMs!: number;
}

export class CallbackDeliveryDto {
  @ApiProperty({ example: 'dlv_4kT9QmZ2xV8bN1cR7sLp', description: 'Also sent as the `Ringfence-Delivery-Id` header of every attempt.' }) deliveryId!: string;
  @ApiProperty({ type: () => LabelChangedCallbackDto, description: 'The body sent (the same bytes on every attempt).' }) event!: LabelChangedCallbackDto;
  @ApiProperty({
    example: 'https://hooks.merchant.example/ringfence',
    description: "Where the last attempt went: each attempt goes to the data set's callback URL at that moment (a URL changed while a delivery is pending takes its next attempt). Before any attempt, the URL when the label changed.",
  })
  url!: string;
  @ApiProperty({ enum: ['pending', 'delivered', 'failed'], description: '`delivered` after a 2xx answer; `failed` once retries ended (24 h after the change) or callbacks were turned off.' })
  status!: 'pending' | 'delivered' | 'failed';
  @ApiProperty({ type: () => [CallbackAttemptDto], description: 'Oldest first.' }) attempts!: CallbackAttemptDto[];
  @ApiProperty({ ...ISO_TIME, type: String, nullable: true, description: 'When the next attempt is due (while one is in flight: when it is made again if this one is lost); null once delivered or failed.' })
  nextAttemptAt!: string | null;
  @ApiProperty(ISO_TIME) createdAt!: string;
}

export class CallbackDeliveriesDto {
  @ApiProperty({ type: () => [CallbackDeliveryDto], description: 'Newest first.' }) deliveries!: CallbackDeliveryDto[];
}

export class CallbackDeliveriesResponseDto {
  @ApiProperty({ example: 200 }) status!: number;
  @ApiProperty({ example: 1764148502123, description: 'Epoch milliseconds.' }) timestamp!: number;
  @ApiProperty({ type: () => CallbackDeliveriesDto }) data!: CallbackDeliveriesDto;
}
