import { IsTimestamp } from '../../validation/timestamp.decorator';
import { IsOptionalEventType } from '../shared/common-fields';
import { DeviceDto } from '../shared/device.dto';
import { IsOptionalNationalIdentifications, type NationalIdentification } from '../shared/national-identification.dto';
import { VehicleDto } from '../shared/vehicle.dto';
import { SupplierDto } from './supplier.dto';
import { IsOptionalNested, IsOptionalNestedArray, IsRequiredNested } from '../../validation/nested.decorator';

/**
 * POST /v2/supplier (specification §4.6): create or update a supplier. The arrays have no minimum
 * length here (the specification sets one for connect only); an empty array adds nothing.
 */
export class SupplierRequestDto {
  @IsTimestamp() timestamp!: number;

  @IsOptionalEventType() eventType?: string;

  @IsRequiredNested(() => SupplierDto, 'The supplier being created or updated.') supplier!: SupplierDto;

  @IsOptionalNested(() => DeviceDto, 'The device the supplier used.') device?: DeviceDto;

  @IsOptionalNationalIdentifications(0) nationalIdentifications?: NationalIdentification[];

  @IsOptionalNestedArray(() => VehicleDto, 'Vehicles the supplier uses.') vehicles?: VehicleDto[];
}
