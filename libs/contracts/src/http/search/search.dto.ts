import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { DEFAULT_SEARCH_RESULTS, MAX_SEARCH_RESULTS, SEARCH_KINDS, type SearchKind } from '../../messages/search.messages';
import { MAX_IDENTIFIER_LENGTH } from '../../validation/patterns';
import { IsOptionalQueryInteger } from '../shared/query-parameters';

/** Query parameters of `GET /v2/search`. */
export class SearchQueryDto {
  @ApiProperty({
    minLength: 1,
    maxLength: MAX_IDENTIFIER_LENGTH,
    example: 'ada@example.com',
    description:
      'What to look for, matched exactly (an e-mail case-insensitively, a phone in E.164 or as the digits stored): a customer or supplier id, an e-mail, a phone number, a card as `BIN…last4` (also `411111 1111`, `411111...1111`, `411111******1111`) or its instrument id, a device id, an IPv4 or IPv6 address. Without `kind` the text is read as every kind it can be.',
  })
  @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) q!: string;

  @ApiPropertyOptional({ enum: SEARCH_KINDS, description: 'Read `q` as this kind only.' })
  @IsOptional() @IsIn(SEARCH_KINDS) kind?: SearchKind;

  @IsOptionalQueryInteger(1, MAX_SEARCH_RESULTS, `Results at most, 1 to ${MAX_SEARCH_RESULTS}; default ${DEFAULT_SEARCH_RESULTS}.`, DEFAULT_SEARCH_RESULTS)
  limit: number = DEFAULT_SEARCH_RESULTS;
}

export class SearchMatchedDto {
  @ApiProperty({ enum: SEARCH_KINDS, example: 'email', description: 'How `q` was read when it found this subject.' }) kind!: SearchKind;
  @ApiProperty({ example: 'ada@example.com', description: 'The value looked up (normalised: a lower-cased e-mail, an E.164 phone, a card as `BIN…last4`).' }) value!: string;
}

export class SearchResultDto {
  @ApiProperty({ enum: ['customer', 'supplier'], example: 'customer' }) subjectType!: 'customer' | 'supplier';
  @ApiProperty({ example: 'cus-61213' }) subjectId!: string;
  @ApiProperty({ type: () => SearchMatchedDto }) matched!: SearchMatchedDto;
  @ApiPropertyOptional({ example: 'Ada Lovelace', description: 'The stored record\'s `name`, when it has one.' }) name?: string;
  @ApiPropertyOptional({ example: 'ada@example.com', description: 'The stored record\'s `email`, when it has one.' }) email?: string;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'FRAUDSTER',
    description: "A customer's current PAYMENT_FRAUD label (`FRAUDSTER`, `GENUINE`, a `POTENTIALLY_` one…), null when it has none. Absent for suppliers.",
  })
  label?: string | null;
}

export class SearchDataDto {
  @ApiProperty({ type: () => [SearchResultDto], description: 'At most `limit`; each subject once, by the first reading that found it (ids first, then e-mail, phone, card, instrument, device, IP).' })
  results!: SearchResultDto[];
}

export class SearchResponseDto {
  @ApiProperty({ type: 'integer', example: 200 }) status!: number;
  @ApiProperty({ type: 'integer', example: 1763800000123, description: 'Epoch milliseconds.' }) timestamp!: number;
  @ApiProperty({ type: () => SearchDataDto }) data!: SearchDataDto;
}
