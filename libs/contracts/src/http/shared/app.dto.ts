import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';

/** The merchant application a registration (or order) came through: `app` of specification §2.2. */
export class AppDto {
  @ApiPropertyOptional({ example: 'ringfence-shop', description: 'Name of the merchant application.' })
  @IsOptional() @IsString() name?: string;
  @ApiPropertyOptional({ example: 'web', description: 'Platform, e.g. `web`, `ios`, `android`.' })
  @IsOptional() @IsString() platform?: string;
  @ApiPropertyOptional({ example: 'shop.merchant.example', description: 'Domain the application is served from.' })
  @IsOptional() @IsString() domain?: string;
}
