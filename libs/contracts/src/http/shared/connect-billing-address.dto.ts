import { ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { LocationDto } from './location.dto';

/**
 * The billing address of a connect card (specification §2.2, "Connect billing address"): the
 * location fields without `addresseeName`, plus `geohash`. OmitType carries the validation rules
 * of the kept fields over, so the two shapes cannot drift apart.
 */
export class ConnectBillingAddressDto extends OmitType(LocationDto, ['addresseeName'] as const) {
  @ApiPropertyOptional({ example: 'gcpvn0ntjut', description: 'Geohash of the address.' }) @IsOptional() @IsString() geohash?: string;
}
