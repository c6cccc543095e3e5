import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject, IsOptional, IsString } from 'class-validator';
import { IsOptionalTimestamp } from '../../validation/timestamp.decorator';
import { LocationDto } from '../shared/location.dto';
import { IsTagMap } from '../shared/tags';
import { CustomerBaseDto } from './customer-base.dto';
import { IsOptionalNested } from '../../validation/nested.decorator';

/** The customer of the v2 customer endpoint (specification §2.2); also the voucher-redemption customer. */
export class CustomerDto extends CustomerBaseDto {
  @IsOptionalTimestamp('When the customer registered (Unix time).') registrationTime?: number;
  @ApiPropertyOptional({ example: { vip: true }, description: 'Tag name to boolean.' })
  @IsOptional() @IsObject() @IsTagMap() tags?: Record<string, boolean>;
  @IsOptionalNested(() => LocationDto, 'Where the customer lives.') location?: LocationDto;
  @ApiPropertyOptional({ example: 'REGISTERED' }) @IsOptional() @IsString() accountType?: string;
}
