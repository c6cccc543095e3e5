import { IsOptionalTagMap } from '../shared/tags';
import { CustomerBaseDto } from './customer-base.dto';

/**
 * The customer of POST /v2/registration (specification §2.2, "Customer (registration)"). No
 * `registrationTime`: the registration's own `timestamp` is when the customer registered.
 */
export class RegistrationCustomerDto extends CustomerBaseDto {
  @IsOptionalTagMap({ newsletter: true }) tags?: Record<string, boolean>;
}
