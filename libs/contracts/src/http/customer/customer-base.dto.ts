import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { MAX_IDENTIFIER_LENGTH } from '../../validation/patterns';
import { IsOptionalTimestamp } from '../../validation/timestamp.decorator';
import { IsOptionalKeyText } from '../../validation/scalar-fields.decorator';

/**
 * The fields every customer shape of specification §2.2 shares (v2 customer, connect,
 * registration, refund). Each endpoint's customer adds its own extras; one base keeps the rules
 * (`customerId` required, 1–300 characters, ADR-0009) the same everywhere.
 */
export abstract class CustomerBaseDto {
  @ApiProperty({ example: 'cus-61213', minLength: 1, maxLength: MAX_IDENTIFIER_LENGTH, description: "The merchant's identifier of the customer." })
  @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) customerId!: string;
  @IsOptionalKeyText('ada@example.com') email?: string;
  @IsOptionalTimestamp('When the email address was verified.') emailVerifiedTime?: number;
  @ApiPropertyOptional({ example: 'Ada Lovelace' }) @IsOptional() @IsString() name?: string;
  @ApiPropertyOptional({ example: 'Lovelace' }) @IsOptional() @IsString() familyName?: string;
  @ApiPropertyOptional({ example: 'Ada' }) @IsOptional() @IsString() givenName?: string;
  @IsOptionalKeyText('+447700900123') telephone?: string;
  @IsOptionalTimestamp('When the telephone number was verified.') telephoneVerifiedTime?: number;
  @ApiPropertyOptional({ example: 'GBR', description: 'Country of the telephone number, ISO alpha-3.' })
  @IsOptional() @IsString() telephoneCountry?: string;
}
