import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { MAX_IDENTIFIER_LENGTH } from '../../validation/patterns';
import { LocationDto } from './location.dto';
import { IsOptionalNested } from '../../validation/nested.decorator';
import { IsOptionalKeyText } from '../../validation/scalar-fields.decorator';

/** Device of the v2 customer, supplier, registration and refund payloads. */
export class DeviceDto {
  @ApiPropertyOptional({ example: 'dev-4f1c', maxLength: MAX_IDENTIFIER_LENGTH })
  @IsOptional() @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) deviceId?: string;
  @IsOptionalKeyText('203.0.113.7') ipAddress?: string;
  @ApiPropertyOptional({ example: 'en-GB' }) @IsOptional() @IsString() language?: string;
  @ApiPropertyOptional({ example: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15' })
  @IsOptional() @IsString() userAgent?: string;
  @ApiPropertyOptional({ example: 'iPhone15,2' }) @IsOptional() @IsString() model?: string;
  @ApiPropertyOptional({ example: 'iOS 18.1' }) @IsOptional() @IsString() os?: string;
  @ApiPropertyOptional({ example: 'phone' }) @IsOptional() @IsString() type?: string;
  @ApiPropertyOptional({ example: 'Apple' }) @IsOptional() @IsString() manufacturer?: string;
  @IsOptionalNested(() => LocationDto, 'Where the device was.') location?: LocationDto;
}
