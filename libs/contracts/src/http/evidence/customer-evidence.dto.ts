import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PAYMENT_REVIEW_DECISIONS, type PaymentReviewDecision } from '../../messages/cases.message';

const AT = { type: 'integer', example: 1763800000000, description: 'The payload\'s time, epoch ms.' } as const;
const MINOR_UNITS = { type: 'integer', example: 4250, description: 'Minor units of `currency` (cents), as sent: an integer, never formatted.' } as const;
const ADDRESS = { type: 'object', additionalProperties: true, description: 'As sent (`street1`, `locality`, `postalCode`, `country`…).' } as const;

export class EvidenceCustomerDto {
  @ApiProperty({ example: 'cus-61213' }) id!: string;
  @ApiPropertyOptional({ example: 'Ada Lovelace' }) name?: string;
  @ApiPropertyOptional({ example: 'ada@example.com' }) email?: string;
  @ApiPropertyOptional({ example: '+447700900123' }) phone?: string;
  @ApiPropertyOptional({ type: 'integer', example: 1729000000000, description: 'Its `registrationTime`, epoch ms.' }) createdAt?: number;
  @ApiPropertyOptional({ example: 'GBR', description: 'Its `location.country`.' }) country?: string;
}

export class EvidenceDecisionDto {
  @ApiProperty({ example: 'scr_2Vb8xKp' }) scoreId!: string;
  @ApiProperty({ example: 'pspBeforeAuth' }) checkpoint!: string;
  @ApiProperty({ type: String, nullable: true, example: 'REVIEW' }) action!: string | null;
  @ApiProperty({ type: 'integer', nullable: true, example: 57 }) score!: number | null;
}

export class EvidenceCardDto {
  @ApiProperty({ example: '411111' }) bin!: string;
  @ApiProperty({ example: '1111' }) last4!: string;
  @ApiPropertyOptional({ example: 'GBR', description: 'Issuing country, as sent or as the features read it.' }) country?: string;
  @ApiPropertyOptional({ example: 'ins-8f2c' }) instrumentId?: string;
}

export class EvidenceIpDto {
  @ApiProperty({ example: '198.51.100.7' }) address!: string;
  @ApiPropertyOptional({ example: 'GBR', description: 'As the decision\'s features read it.' }) country?: string;
}

export class EvidenceDeviceDto {
  @ApiProperty({ example: 'dev-1' }) deviceId!: string;
  @ApiPropertyOptional({ example: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0' }) userAgent?: string;
}

export class EvidenceDisputeDto {
  @ApiProperty({ example: 'dsp-0042' }) disputeId!: string;
  @ApiPropertyOptional({ example: 'tx-0001' }) transactionId?: string;
  @ApiProperty({ type: String, nullable: true, example: 'CHARGEBACK', description: 'Its `status`, else `stage`, else `outcome`, as sent.' }) status!: string | null;
  @ApiPropertyOptional({ example: 'LOST' }) outcome?: string;
  @ApiPropertyOptional({ example: 'fraudulent' }) reason?: string;
  @ApiProperty({ example: false, description: 'Forgiven (`nonFraud`, outcome WON, stage CHARGEBACK_REVERSED): it no longer makes the customer a fraudster.' }) forgiven!: boolean;
  @ApiPropertyOptional(MINOR_UNITS) amount?: number;
  @ApiPropertyOptional({ example: 'EUR' }) currency?: string;
  @ApiProperty({ type: 'integer', nullable: true, example: 1763800000000, description: 'Its `disputeTime`, else when it was last reported, epoch ms.' }) at!: number | null;
}

export class EvidencePaymentReviewDto {
  @ApiProperty({ enum: PAYMENT_REVIEW_DECISIONS, example: 'fraud' }) decision!: PaymentReviewDecision;
  @ApiProperty({ example: 'ana@shop.example', description: 'Who reviewed it: a person\'s e-mail address, or `key <id>` for an integration.' }) actor!: string;
  @ApiProperty({ type: 'integer', example: 1763800000000, description: 'When, epoch ms.' }) at!: number;
  @ApiProperty({ type: String, nullable: true, example: 'card reported stolen' }) comment!: string | null;
}

export class EvidencePaymentDto {
  @ApiProperty({ example: 'tx-0001' }) transactionId!: string;
  @ApiPropertyOptional({ example: 'ord-77' }) orderId?: string;
  @ApiProperty(AT) at!: number;
  @ApiProperty({ ...MINOR_UNITS, nullable: true }) amount!: number | null;
  @ApiProperty({ type: String, nullable: true, example: 'EUR' }) currency!: string | null;
  @ApiPropertyOptional({ example: false }) success?: boolean;
  @ApiPropertyOptional({ example: 'insufficient_funds' }) declineCode?: string;
  @ApiPropertyOptional({ type: () => EvidenceCardDto }) card?: EvidenceCardDto;
  @ApiPropertyOptional({ type: () => EvidenceIpDto }) ip?: EvidenceIpDto;
  @ApiPropertyOptional({ type: () => EvidenceDeviceDto }) device?: EvidenceDeviceDto;
  @ApiPropertyOptional(ADDRESS) billingAddress?: Record<string, unknown>;
  @ApiPropertyOptional(ADDRESS) shippingAddress?: Record<string, unknown>;
  @ApiPropertyOptional({ type: () => EvidenceDecisionDto, description: 'The newest decision about this payment.' }) decision?: EvidenceDecisionDto;
  @ApiProperty({ type: () => [EvidenceDisputeDto] }) disputes!: EvidenceDisputeDto[];
  @ApiProperty({ type: () => EvidencePaymentReviewDto, nullable: true, description: 'The analyst\'s current review of this payment (`POST /v2/payments/{transactionId}/review`); null when none, or withdrawn.' })
  review!: EvidencePaymentReviewDto | null;
}

export class EvidenceOrderDto {
  @ApiProperty({ example: 'ord-77' }) orderId!: string;
  @ApiProperty(AT) at!: number;
  @ApiProperty({ ...MINOR_UNITS, nullable: true }) amount!: number | null;
  @ApiProperty({ type: String, nullable: true, example: 'EUR' }) currency!: string | null;
  @ApiPropertyOptional({ type: () => EvidenceDecisionDto }) decision?: EvidenceDecisionDto;
}

export class EvidenceRefundDto {
  @ApiProperty({ example: 'ref-3' }) refundId!: string;
  @ApiPropertyOptional({ example: 'tx-0001' }) transactionId?: string;
  @ApiProperty(AT) at!: number;
  @ApiProperty({ ...MINOR_UNITS, nullable: true }) amount!: number | null;
  @ApiProperty({ type: String, nullable: true, example: 'EUR' }) currency!: string | null;
  @ApiPropertyOptional({ type: () => EvidenceDecisionDto }) decision?: EvidenceDecisionDto;
}

export class EvidenceSpendDto {
  @ApiProperty({ type: 'integer', example: 12990, description: 'Sum of the successful payments\' amounts, minor units.' }) total!: number;
  @ApiProperty({ type: 'integer', example: 3 }) count!: number;
}

export class EvidenceAddressDto {
  @ApiProperty({ enum: ['billing', 'shipping'] }) kind!: 'billing' | 'shipping';
  @ApiProperty(ADDRESS) address!: Record<string, unknown>;
  @ApiProperty({ type: 'integer', example: 1763800000000 }) lastSeen!: number;
}

export class EvidenceSightingDto {
  @ApiProperty({ type: 'integer', example: 1763700000000 }) firstSeen!: number;
  @ApiProperty({ type: 'integer', example: 1763800000000 }) lastSeen!: number;
  @ApiProperty({ type: 'integer', example: 4, description: 'Decisions that saw it.' }) count!: number;
}

export class EvidenceDeviceSeenDto extends EvidenceSightingDto {
  @ApiProperty({ example: 'dev-1' }) deviceId!: string;
  @ApiPropertyOptional({ example: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0' }) userAgent?: string;
}

export class EvidenceIpSeenDto extends EvidenceSightingDto {
  @ApiProperty({ example: '198.51.100.7' }) address!: string;
  @ApiPropertyOptional({ example: 'GBR' }) country?: string;
}

export class CustomerEvidenceDto {
  @ApiProperty({ type: () => EvidenceCustomerDto }) customer!: EvidenceCustomerDto;
  @ApiProperty({ type: () => [EvidencePaymentDto], description: 'Newest first, one per transaction.' }) payments!: EvidencePaymentDto[];
  @ApiProperty({ type: () => [EvidenceOrderDto], description: 'Newest first.' }) orders!: EvidenceOrderDto[];
  @ApiProperty({ type: () => [EvidenceRefundDto], description: 'Newest first.' }) refunds!: EvidenceRefundDto[];
  @ApiProperty({ type: () => [EvidenceDisputeDto], description: 'Every dispute or chargeback known of the customer and of its payments.' }) disputes!: EvidenceDisputeDto[];
  @ApiProperty({ type: 'object', additionalProperties: { type: 'object', properties: { total: { type: 'integer' }, count: { type: 'integer' } }, required: ['total', 'count'] }, example: { EUR: { total: 12990, count: 3 } }, description: 'Successful payments per currency.' })
  spend!: Record<string, EvidenceSpendDto>;
  @ApiProperty({ type: () => [EvidenceAddressDto] }) addresses!: EvidenceAddressDto[];
  @ApiProperty({ type: () => [EvidenceDeviceSeenDto], description: 'Newest first.' }) devices!: EvidenceDeviceSeenDto[];
  @ApiProperty({ type: () => [EvidenceIpSeenDto], description: 'Newest first.' }) ips!: EvidenceIpSeenDto[];
  @ApiProperty({ type: 'integer', example: 100, description: 'Decisions read (the newest, at most 100): what every list is made from.' }) decisionsRead!: number;
}

export class CustomerEvidenceResponseDto {
  @ApiProperty({ type: 'integer', example: 200 }) status!: number;
  @ApiProperty({ type: 'integer', example: 1763800000123, description: 'Epoch milliseconds.' }) timestamp!: number;
  @ApiProperty({ type: () => CustomerEvidenceDto }) data!: CustomerEvidenceDto;
}
