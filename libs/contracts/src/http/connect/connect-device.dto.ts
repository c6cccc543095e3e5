import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { IsOptionalIdentifier } from '../shared/common-fields';

/** The device of POST /v2/connect (specification §2.2, "Device (connect)"): no IP address or location, but a browser. */
export class ConnectDeviceDto {
  @IsOptionalIdentifier('dev-4f1c', 'The merchant’s device identifier; the device node of the graph.') deviceId?: string;
  @ApiPropertyOptional({ example: 'phone' }) @IsOptional() @IsString() type?: string;
  @ApiPropertyOptional({ example: 'Apple' }) @IsOptional() @IsString() manufacturer?: string;
  @ApiPropertyOptional({ example: 'iPhone15,2' }) @IsOptional() @IsString() model?: string;
  @ApiPropertyOptional({ example: 'iOS 18.1' }) @IsOptional() @IsString() os?: string;
  @ApiPropertyOptional({ example: 'Safari 18' }) @IsOptional() @IsString() browser?: string;
  @ApiPropertyOptional({ example: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15' })
  @IsOptional() @IsString() userAgent?: string;
}
