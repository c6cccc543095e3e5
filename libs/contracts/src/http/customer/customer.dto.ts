import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { IsOptionalTimestamp } from '../../validation/timestamp.decorator';
import { LocationDto } from '../shared/location.dto';
import { IsOptionalTagMap } from '../shared/tags';
import { CustomerBaseDto } from './customer-base.dto';
import { IsOptionalNested } from '../../validation/nested.decorator';

/** The customer of the v2 customer endpoint (specification §2.2); also the voucher-redemption customer. */
export class CustomerDto extends CustomerBaseDto {
  @IsOptionalTimestamp('When the customer registered (Unix time).') registrationTime?: number;
  @IsOptionalTagMap({ vip: true }) tags?: Record<string, boolean>;
  @IsOptionalNested(() => LocationDto, 'Where the customer lives.') location?: LocationDto;
  @ApiPropertyOptional({ example: 'REGISTERED' }) @IsOptional() @IsString() accountType?: string;
}
