import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** The normalised value of each indicator a request named, by indicator name. */
export class LookupIndicatorValuesDto {
  @ApiPropertyOptional({ example: 'fraud.ster@example.com' }) email?: string;
  @ApiPropertyOptional({ example: '+447700900123' }) telephone?: string;
  @ApiPropertyOptional({ example: '203.0.113.7' }) ipAddress?: string;
  @ApiPropertyOptional({ example: 'card-fp-8c1e' }) instrumentId?: string;
  @ApiPropertyOptional({ example: 'payer-77' }) payerId?: string;
  @ApiPropertyOptional({ example: 'GB29NWBK60161331926819' }) bankId?: string;
}

export class LookupEvidenceCountsDto {
  @ApiProperty({ example: 1, description: 'Chargebacks recorded for each indicator of the request.' }) chargebacks!: number;
  @ApiProperty({ example: 1, description: 'Manual reviews recorded for each indicator of the request.' }) manualReviews!: number;
}

export class LookupAddedDto {
  @ApiProperty({ type: () => LookupIndicatorValuesDto, description: 'The indicators recorded, as they are stored and matched.' })
  added!: LookupIndicatorValuesDto;
  @ApiProperty({ type: () => LookupEvidenceCountsDto }) evidence!: LookupEvidenceCountsDto;
}

export class LookupAddResponseDto {
  @ApiProperty({ example: 200 }) status!: number;
  @ApiProperty({ example: 1763800000123, description: 'Epoch milliseconds.' }) timestamp!: number;
  @ApiProperty({ type: () => LookupAddedDto }) data!: LookupAddedDto;
}

/** Evidence by kind, over this account and the others (never saying which). */
export class LookupSourcesDto {
  @ApiProperty({ example: 2 }) chargeback!: number;
  @ApiProperty({ example: 1 }) manualReview!: number;
  @ApiProperty({ example: 1, description: 'Accounts that reported the indicator without chargebacks or reviews.' }) report!: number;
}

/** What is known about one indicator, in aggregate over the accounts of this data set. */
export class IndicatorLookupDto {
  @ApiProperty({ example: 'fraud.ster@example.com', description: 'The value as matched (normalised).' }) value!: string;
  @ApiProperty({ example: true, description: 'Some account reported it (with or without evidence).' }) known!: boolean;
  @ApiProperty({ example: 2, description: "Chargebacks, this account's and other accounts'." }) chargebacks!: number;
  @ApiProperty({ example: 1, description: "Manual reviews, this account's and other accounts'." }) manualReviews!: number;
  @ApiProperty({ type: 'integer', nullable: true, example: 1763000000000, description: 'Epoch milliseconds; null when unknown.' })
  firstSeen!: number | null;
  @ApiProperty({ type: 'integer', nullable: true, example: 1763800000000, description: 'Epoch milliseconds; null when unknown.' })
  lastSeen!: number | null;
  @ApiProperty({ type: () => LookupSourcesDto }) sources!: LookupSourcesDto;
}

/** One entry per indicator the request asked about. */
export class LookupIndicatorsDto {
  @ApiPropertyOptional({ type: () => IndicatorLookupDto }) email?: IndicatorLookupDto;
  @ApiPropertyOptional({ type: () => IndicatorLookupDto }) telephone?: IndicatorLookupDto;
  @ApiPropertyOptional({ type: () => IndicatorLookupDto }) ipAddress?: IndicatorLookupDto;
  @ApiPropertyOptional({ type: () => IndicatorLookupDto }) instrumentId?: IndicatorLookupDto;
  @ApiPropertyOptional({ type: () => IndicatorLookupDto }) payerId?: IndicatorLookupDto;
  @ApiPropertyOptional({ type: () => IndicatorLookupDto }) bankId?: IndicatorLookupDto;
}

export class LookupReadResponseDto {
  @ApiProperty({ example: 200 }) status!: number;
  @ApiProperty({ example: 1763800000123, description: 'Epoch milliseconds.' }) timestamp!: number;
  @ApiProperty({ type: () => LookupIndicatorsDto }) data!: LookupIndicatorsDto;
}

/** Pieces of evidence (chargebacks, manual reviews, bare reports) removed, per indicator asked. */
export class LookupDeletedCountsDto {
  @ApiPropertyOptional({ example: 3 }) email?: number;
  @ApiPropertyOptional({ example: 0 }) telephone?: number;
  @ApiPropertyOptional({ example: 1 }) ipAddress?: number;
  @ApiPropertyOptional({ example: 1 }) instrumentId?: number;
  @ApiPropertyOptional({ example: 0 }) payerId?: number;
  @ApiPropertyOptional({ example: 0 }) bankId?: number;
}

export class LookupDeletedDto {
  @ApiProperty({ type: () => LookupDeletedCountsDto }) deleted!: LookupDeletedCountsDto;
}

export class LookupDeleteResponseDto {
  @ApiProperty({ example: 200 }) status!: number;
  @ApiProperty({ example: 1763800000123, description: 'Epoch milliseconds.' }) timestamp!: number;
  @ApiProperty({ type: () => LookupDeletedDto }) data!: LookupDeletedDto;
}
