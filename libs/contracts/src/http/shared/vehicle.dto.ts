import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { IsOptionalInteger, IsOptionalKeyText } from '../../validation/scalar-fields.decorator';

/**
 * A vehicle of a connect or supplier payload (specification §2.2). In the graph a vehicle is
 * identified by `vin`, else by jurisdictionCountry + jurisdictionState + plate (ADR-0004), so
 * no single field is required.
 */
export class VehicleDto {
  @IsOptionalKeyText('LB07 SEO', 'Registration (licence) plate.') plate?: string;
  @IsOptionalKeyText('GBR', 'Country that issued the plate, three-letter code.') jurisdictionCountry?: string;
  @IsOptionalKeyText('ENG', 'State or region that issued the plate.') jurisdictionState?: string;
  @ApiPropertyOptional({ example: 'Toyota' }) @IsOptional() @IsString() make?: string;
  @ApiPropertyOptional({ example: 'Prius' }) @IsOptional() @IsString() model?: string;
  @IsOptionalInteger(2019, 'Model year.') year?: number;
  @IsOptionalKeyText('JTDKN3DU5A0123456', 'Vehicle identification number.') vin?: string;
}
