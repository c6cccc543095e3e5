import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsNumber, IsOptional, IsString } from 'class-validator';

/** Location or address of the v2 payloads (`location`, `homeLocation`, `billingAddress`, …). */
export class LocationDto {
  @ApiPropertyOptional({ example: 'GBR', description: 'Country, three-letter code.' })
  @IsOptional() @IsString() country?: string;
  @ApiPropertyOptional({ example: 'EC1V 9HX' }) @IsOptional() @IsString() postalCode?: string;
  @ApiPropertyOptional({ example: 51.5264 }) @IsOptional() @IsNumber({ allowNaN: false, allowInfinity: false }) latitude?: number;
  @ApiPropertyOptional({ example: -0.0885 }) @IsOptional() @IsNumber({ allowNaN: false, allowInfinity: false }) longitude?: number;
  @ApiPropertyOptional({ example: 'Ada Lovelace', description: 'Name of the person at the address.' }) @IsOptional() @IsString() addresseeName?: string;
  @ApiPropertyOptional({ example: '1 City Road' }) @IsOptional() @IsString() street1?: string;
  @ApiPropertyOptional({ example: 'Flat 4' }) @IsOptional() @IsString() street2?: string;
  @ApiPropertyOptional({ example: 'Shoreditch' }) @IsOptional() @IsString() neighbourhood?: string;
  @ApiPropertyOptional({ example: 'Zone 1', description: 'Delivery or administrative zone.' }) @IsOptional() @IsString() zone?: string;
  @ApiPropertyOptional({ example: 'London' }) @IsOptional() @IsString() city?: string;
  @ApiPropertyOptional({ example: 'Greater London', description: 'State, county or region.' }) @IsOptional() @IsString() region?: string;
  @ApiPropertyOptional({ example: 'PO Box 1234' }) @IsOptional() @IsString() poBoxNumber?: string;
}
