import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsEmail, IsObject, IsOptional, IsString, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { MAX_IDENTIFIER_LENGTH } from '../../validation/patterns';
import { IsOptionalTimestamp } from '../../validation/timestamp.decorator';
import { LocationDto } from '../shared/location.dto';
import { IsTagMap } from '../shared/tags';

/** The customer of the v2 customer endpoint (specification §2.2). */
export class CustomerDto {
  @ApiProperty({ example: 'cus-61213', minLength: 1, maxLength: MAX_IDENTIFIER_LENGTH })
  @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) customerId!: string;
  @IsOptionalTimestamp('When the customer registered (Unix time).') registrationTime?: number;
  @ApiPropertyOptional({ example: 'ada@example.com' })
  @IsOptional() @IsString() @IsEmail({}, { message: 'must be an email address' }) email?: string;
  @IsOptionalTimestamp('When the email address was verified.') emailVerifiedTime?: number;
  @ApiPropertyOptional({ example: 'Ada Lovelace' }) @IsOptional() @IsString() name?: string;
  @ApiPropertyOptional({ example: 'Lovelace' }) @IsOptional() @IsString() familyName?: string;
  @ApiPropertyOptional({ example: 'Ada' }) @IsOptional() @IsString() givenName?: string;
  @ApiPropertyOptional({ example: '+447700900123' }) @IsOptional() @IsString() telephone?: string;
  @IsOptionalTimestamp('When the telephone number was verified.') telephoneVerifiedTime?: number;
  @ApiPropertyOptional({ example: 'GBR', description: 'Country of the telephone number, ISO alpha-3.' })
  @IsOptional() @IsString() telephoneCountry?: string;
  @ApiPropertyOptional({ example: { vip: true }, description: 'Tag name to boolean.' })
  @IsOptional() @IsObject() @IsTagMap() tags?: Record<string, boolean>;
  @ApiPropertyOptional({ type: () => LocationDto })
  @IsOptional() @ValidateNested() @Type(() => LocationDto) location?: LocationDto;
  @ApiPropertyOptional({ example: 'REGISTERED' }) @IsOptional() @IsString() accountType?: string;
}
