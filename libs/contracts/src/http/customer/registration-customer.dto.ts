import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject, IsOptional } from 'class-validator';
import { IsTagMap } from '../shared/tags';
import { CustomerBaseDto } from './customer-base.dto';

/**
 * The customer of POST /v2/registration (specification §2.2, "Customer (registration)"). No
 * `registrationTime`: the registration's own `timestamp` is when the customer registered.
 */
export class RegistrationCustomerDto extends CustomerBaseDto {
  @ApiPropertyOptional({ example: { newsletter: true }, description: 'Tag name to boolean.' })
  @IsOptional() @IsObject() @IsTagMap() tags?: Record<string, boolean>;
}
