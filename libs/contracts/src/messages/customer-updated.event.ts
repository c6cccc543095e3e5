import { Type } from 'class-transformer';
import { IsDefined, IsInt, IsOptional, IsString, ValidateNested } from 'class-validator';
import { CustomerDto } from '../http/customer/customer.dto';
import { DeviceDto } from '../http/shared/device.dto';

/**
 * `ringfence.ingest.customer.updated.v1`: a customer payload the gateway accepted. Times are
 * already normalised to epoch milliseconds.
 */
export class CustomerUpdatedEvent {
  @IsInt() timestamp!: number;
  @IsOptional() @IsString() eventType?: string;
  @IsDefined() @ValidateNested() @Type(() => CustomerDto) customer!: CustomerDto;
  @IsOptional() @ValidateNested() @Type(() => DeviceDto) device?: DeviceDto;
  @IsOptional() @IsString() deviceId?: string;
}
