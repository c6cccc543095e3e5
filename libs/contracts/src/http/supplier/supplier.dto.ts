import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString } from 'class-validator';
import { IsOptionalTimestamp } from '../../validation/timestamp.decorator';
import { LocationDto } from '../shared/location.dto';
import { RegistrationSupplierDto } from './registration-supplier.dto';
import { IsOptionalNested } from '../../validation/nested.decorator';

/**
 * The full supplier form (specification §2.2, "Supplier"): POST /v2/supplier and the payout
 * recipient. Everything the registration supplier carries, plus addresses and account details.
 */
export class SupplierDto extends RegistrationSupplierDto {
  @IsOptionalTimestamp('When the supplier registered (Unix time).') registrationTime?: number;
  @IsOptionalNested(() => LocationDto, 'Where the supplier lives.') homeLocation?: LocationDto;
  @IsOptionalNested(() => LocationDto, 'Address the supplier is taxed at.') taxAddress?: LocationDto;
  @ApiPropertyOptional({ example: 'INDIVIDUAL', description: 'Value seen: `INDIVIDUAL`.' }) @IsOptional() @IsString() accountType?: string;
  @ApiPropertyOptional({ example: 'ios', description: 'Platform the supplier account is operated from.' })
  @IsOptional() @IsString() accountPlatform?: string;
  @ApiPropertyOptional({ example: true, description: 'Whether the merchant verified the supplier’s identity (strict boolean).' })
  @IsOptional() @IsBoolean() identityVerified?: boolean;
}
