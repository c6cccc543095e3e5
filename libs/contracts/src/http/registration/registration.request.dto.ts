import { MutuallyExclusiveWith } from '../../validation/mutually-exclusive.decorator';
import { IsTimestamp } from '../../validation/timestamp.decorator';
import { RegistrationCustomerDto } from '../customer/registration-customer.dto';
import { IsOptionalEventType } from '../shared/common-fields';
import { DeviceDto } from '../shared/device.dto';
import { RegistrationSupplierDto } from '../supplier/registration-supplier.dto';
import { RegistrationDto } from './registration.dto';
import { IsOptionalNested, IsRequiredNested } from '../../validation/nested.decorator';

/**
 * POST /v2/registration (specification §4.7), which leaves open which fields are required. Our
 * choice: `timestamp` and `registration` are required; `customer` and `supplier` are each
 * optional but never both (one user registers as one kind of account); neither is allowed for an
 * attempt that failed before the merchant created an account, which is then recorded by its
 * username and device only.
 */
export class RegistrationRequestDto {
  @IsTimestamp('When the user requested registration. Unix time in seconds, milliseconds or nanoseconds.') timestamp!: number;

  @IsOptionalEventType() eventType?: string;

  @IsRequiredNested(() => RegistrationDto, 'The registration attempt.') registration!: RegistrationDto;

  @IsOptionalNested(() => RegistrationCustomerDto, 'When a customer registers. Mutually exclusive with `supplier`.') @MutuallyExclusiveWith('supplier')
  customer?: RegistrationCustomerDto;

  @IsOptionalNested(() => RegistrationSupplierDto, 'When a supplier registers. Mutually exclusive with `customer`.') supplier?: RegistrationSupplierDto;

  @IsOptionalNested(() => DeviceDto, 'The device the user registered from.') device?: DeviceDto;
}
