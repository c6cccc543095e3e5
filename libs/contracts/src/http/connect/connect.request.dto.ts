import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMinSize, ValidateNested } from 'class-validator';
import { MutuallyExclusiveWith, RequiredUnless } from '../../validation/mutually-exclusive.decorator';
import { IsTimestamp } from '../../validation/timestamp.decorator';
import { ConnectCustomerDto } from '../customer/connect-customer.dto';
import { PspDisputeDto } from '../psp/psp-dispute.dto';
import { IsOptionalEventType, IsOptionalIdentifier } from '../shared/common-fields';
import { IsOptionalNationalIdentifications, type NationalIdentification } from '../shared/national-identification.dto';
import { VehicleDto } from '../shared/vehicle.dto';
import { ConnectPaymentMethodDto } from './connect-card.dto';
import { ConnectChargebackDto } from './connect-chargeback.dto';
import { ConnectDeviceDto } from './connect-device.dto';
import { ConnectReviewDto } from './connect-review.dto';
import { CustomNodeDto } from './custom-node.dto';
import { IsOptionalNested, IsOptionalNestedArray } from '../../validation/nested.decorator';
import { IsObjectWhenSent } from '../shared/object-when-sent';

/**
 * POST /v2/connect (specification §4.2): links the customer to everything in the body, then
 * answers graph statistics around it. It names the customer by `customerId` or by `customer`,
 * exactly one of the two (ADR-0009); `deviceId` and `device` are likewise exclusive.
 */
export class ConnectRequestDto {
  @IsTimestamp() timestamp!: number;

  @IsOptionalEventType() eventType?: string;

  @IsOptionalIdentifier('cus-61213', 'The customer to connect. Required unless `customer` is sent; mutually exclusive with it.')
  customerId?: string;

  // Not @IsOptional: RequiredUnless must run when both are absent. Nested validation skips an
  // absent value by itself.
  @ApiPropertyOptional({ type: () => ConnectCustomerDto, description: 'The customer to connect, with its details. Mutually exclusive with `customerId`.' })
  @RequiredUnless('customerId') @IsObjectWhenSent() @MutuallyExclusiveWith('customerId') @ValidateNested() @Type(() => ConnectCustomerDto)
  customer?: ConnectCustomerDto;

  @IsOptionalNestedArray(() => ConnectPaymentMethodDto, 'Cards of the customer, each wrapped as `{card: {...}}`.')
  paymentMethods?: ConnectPaymentMethodDto[];

  @IsOptionalNationalIdentifications(1) nationalIdentifications?: NationalIdentification[];

  @IsOptionalNestedArray(() => VehicleDto, 'Vehicles the customer uses; at least one when sent.') @ArrayMinSize(1) @ApiPropertyOptional({ minItems: 1 })
  vehicles?: VehicleDto[];

  @IsOptionalIdentifier('dev-4f1c', 'A device the customer used. Mutually exclusive with `device`.') deviceId?: string;

  @IsOptionalNested(() => ConnectDeviceDto, 'A device the customer used. Mutually exclusive with `deviceId`.') @MutuallyExclusiveWith('deviceId')
  device?: ConnectDeviceDto;

  @IsOptionalNested(() => ConnectChargebackDto, 'A chargeback of the customer; links it as a chargeback node.')
  chargeback?: ConnectChargebackDto;

  @IsOptionalNested(() => PspDisputeDto, 'A dispute in the PSP dispute shape (the specification does not show one for connect); links it to the customer.')
  dispute?: PspDisputeDto;

  @IsOptionalNested(() => ConnectReviewDto, 'A manual review; sets the customer’s PAYMENT_FRAUD label.')
  review?: ConnectReviewDto;

  @IsOptionalNested(() => CustomNodeDto, 'One custom entity; the same as a one-item `customNodes`. Both may be sent.')
  customNode?: CustomNodeDto;

  @IsOptionalNestedArray(() => CustomNodeDto, 'Custom entities linked to the customer as nodes.')
  customNodes?: CustomNodeDto[];
}

/** The customer a connect request is about: validation guarantees `customerId` or `customer`. */
export function connectCustomerId(request: Pick<ConnectRequestDto, 'customerId' | 'customer'>): string {
  const customerId = request.customerId ?? request.customer?.customerId;
  if (customerId === undefined) throw new Error('a validated connect request always names its customer');
  return customerId;
}
