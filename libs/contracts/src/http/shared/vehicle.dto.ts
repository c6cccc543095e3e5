import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { IsOptionalInteger } from '../../validation/scalar-fields.decorator';

/**
 * A vehicle of a connect or supplier payload (specification §2.2). In the graph a vehicle is
 * identified by `vin`, else by jurisdictionCountry + jurisdictionState + plate (decisions §4), so
 * no single field is required.
 */
export class VehicleDto {
  @ApiPropertyOptional({ example: 'LB07 SEO', description: 'Registration (licence) plate.' }) @IsOptional() @IsString() plate?: string;
  @ApiPropertyOptional({ example: 'GBR', description: 'Country that issued the plate, three-letter code.' })
  @IsOptional() @IsString() jurisdictionCountry?: string;
  @ApiPropertyOptional({ example: 'ENG', description: 'State or region that issued the plate.' })
  @IsOptional() @IsString() jurisdictionState?: string;
  @ApiPropertyOptional({ example: 'Toyota' }) @IsOptional() @IsString() make?: string;
  @ApiPropertyOptional({ example: 'Prius' }) @IsOptional() @IsString() model?: string;
  @IsOptionalInteger(2019, 'Model year.') year?: number;
  @ApiPropertyOptional({ example: 'JTDKN3DU5A0123456', description: 'Vehicle identification number.' })
  @IsOptional() @IsString() vin?: string;
}
