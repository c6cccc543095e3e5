import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { MAX_IDENTIFIER_LENGTH } from '../../validation/patterns';
import { IsOptionalTimestamp } from '../../validation/timestamp.decorator';
import { IsOptionalTagMap } from '../shared/tags';
import { IsOptionalKeyText } from '../../validation/scalar-fields.decorator';

/**
 * The supplier of POST /v2/registration (specification §2.2: "Registration suppliers carry …").
 * It is a subset of the full supplier form, which extends it (`SupplierDto`).
 */
export class RegistrationSupplierDto {
  @ApiProperty({ example: 'sup-2231', minLength: 1, maxLength: MAX_IDENTIFIER_LENGTH, description: "The merchant's identifier of the supplier." })
  @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) supplierId!: string;
  @ApiPropertyOptional({ example: 'Alan Turing' }) @IsOptional() @IsString() name?: string;
  @ApiPropertyOptional({ example: 'grp-london-couriers', description: 'Group (fleet, franchise, …) the supplier belongs to.' })
  @IsOptional() @IsString() groupId?: string;
  @ApiPropertyOptional({ example: 'London couriers' }) @IsOptional() @IsString() groupName?: string;
  @IsOptionalKeyText('alan@couriers.example') email?: string;
  @IsOptionalTimestamp('When the email address was verified.') emailVerifiedTime?: number;
  @IsOptionalKeyText('+447700900456') telephone?: string;
  @IsOptionalTimestamp('When the telephone number was verified.') telephoneVerifiedTime?: number;
  @ApiPropertyOptional({ example: 'GBR', description: 'Country of the telephone number, ISO alpha-3.' })
  @IsOptional() @IsString() telephoneCountry?: string;
  @ApiPropertyOptional({ example: 'courier', description: 'Kind of supplier; values seen: `driver`, `courier`.' })
  @IsOptional() @IsString() type?: string;
  @ApiPropertyOptional({ example: 'gold', description: "The merchant's tier or level of the supplier." }) @IsOptional() @IsString() level?: string;
  @ApiPropertyOptional({ example: 'self-employed' }) @IsOptional() @IsString() employmentType?: string;
  @ApiPropertyOptional({ example: 'bicycle' }) @IsOptional() @IsString() transportType?: string;
  @ApiPropertyOptional({ example: 'food-delivery' }) @IsOptional() @IsString() category?: string;
  @IsOptionalTagMap({ onboarded: true }) tags?: Record<string, boolean>;
}
