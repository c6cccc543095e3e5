import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { IsOptionalTimestamp } from '../../validation/timestamp.decorator';
import { IsOptionalTagMap } from '../shared/tags';
import { CustomerBaseDto } from './customer-base.dto';

/** The customer of POST /v2/connect (specification §2.2, "Customer (connect)"): a flat `country`, no location. */
export class ConnectCustomerDto extends CustomerBaseDto {
  @IsOptionalTimestamp('When the customer registered (Unix time).') registrationTime?: number;
  @IsOptionalTagMap({ vip: true }, 'Tag name to boolean; tags set true are reported by the connect features answer.') tags?: Record<string, boolean>;
  @ApiPropertyOptional({ example: 'GBR', description: 'Country of the customer, three-letter code.' }) @IsOptional() @IsString() country?: string;
}
