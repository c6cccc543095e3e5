import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { MutuallyExclusiveWith } from '../../validation/mutually-exclusive.decorator';
import { EVENT_TYPE_PATTERN, MAX_IDENTIFIER_LENGTH } from '../../validation/patterns';
import { IsTimestamp } from '../../validation/timestamp.decorator';
import { DeviceDto } from '../shared/device.dto';
import { CustomerDto } from './customer.dto';
import { IsOptionalNested, IsRequiredNested } from '../../validation/nested.decorator';

/** POST /v2/customer: create or update a customer and get a recommendation. */
export class CustomerRequestDto {
  @IsTimestamp() timestamp!: number;

  @ApiPropertyOptional({ example: 'account-update', pattern: EVENT_TYPE_PATTERN.source })
  @IsOptional() @IsString() @MinLength(1) @Matches(EVENT_TYPE_PATTERN, { message: `must match ${EVENT_TYPE_PATTERN.source}` })
  eventType?: string;

  @IsRequiredNested(() => CustomerDto, 'The customer registering or updating.') customer!: CustomerDto;

  @IsOptionalNested(() => DeviceDto, 'Mutually exclusive with deviceId.') @MutuallyExclusiveWith('deviceId') device?: DeviceDto;

  @ApiPropertyOptional({ example: 'dev-4f1c', minLength: 1, maxLength: MAX_IDENTIFIER_LENGTH })
  @IsOptional() @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) deviceId?: string;
}
