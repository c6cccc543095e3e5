import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsObject, IsOptional, ValidateNested } from 'class-validator';
import { IsOptionalNested, IsRequiredNested } from '../../validation/nested.decorator';
import { toOpenDto } from '../../validation/open-dto';
import { IsTimestamp } from '../../validation/timestamp.decorator';
import { PspAddressDto } from './psp-address.dto';
import { PspCustomerDto } from './psp-customer.dto';
import { PspDeviceDto } from './psp-device.dto';
import { PspPaymentMethodDto } from './psp-payment-method.dto';
import { PspTransactionDto } from './psp-transaction.dto';
import { ThreeDSecureDto } from './three-d-secure.dto';

const OPEN_OBJECT_NOTE =
  'Its fields are not shown by the specification: any JSON object is accepted and kept as sent.';

/**
 * POST /psp/transaction and /psp/transaction/async (specification §4.3): one update of a
 * payment-processor transaction, with what the processor knows of the card, the cardholder and
 * the device. Scoring is asked for with the `checkpoint` query parameter.
 */
export class PspTransactionRequestDto {
  @IsTimestamp('When the update was valid: Unix time in seconds, milliseconds or nanoseconds (normalised by magnitude).')
  timestamp!: number;

  @IsRequiredNested(() => PspTransactionDto)
  transaction!: PspTransactionDto;

  @IsOptionalNested(() => PspAddressDto, 'The cardholder address used for address checks; fewer details are common.')
  billingAddress?: PspAddressDto;

  @IsOptionalNested(() => PspAddressDto, 'The delivery or drop-off location.')
  shippingAddress?: PspAddressDto;

  @IsOptionalNested(() => PspDeviceDto, 'The device paying; omit it when the device is shared (an in-store terminal).')
  device?: PspDeviceDto;

  @IsOptionalNested(() => PspPaymentMethodDto)
  paymentMethod?: PspPaymentMethodDto;

  @IsOptionalNested(() => ThreeDSecureDto, 'The 3-D Secure result, if authentication was attempted.')
  threeds?: ThreeDSecureDto;

  @ApiPropertyOptional({
    type: () => PspCustomerDto,
    description: 'The customer paying. `customerId`, `email` and `telephone` are checked; further fields (not shown by the specification) are kept as sent.',
  })
  @IsOptional() @IsObject() @ValidateNested()
  @Transform(({ obj, options }) => toOpenDto(PspCustomerDto, (obj as PspTransactionRequestDto).customer, options), { toClassOnly: true })
  customer?: PspCustomerDto;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    example: { bookingReference: 'RF7QX2', legs: [{ origin: 'LHR', destination: 'JFK', departureTime: 1764000000 }] },
    description: `The flight booked, for airline merchants. ${OPEN_OBJECT_NOTE}`,
  })
  @IsOptional() @IsObject() flightBooking?: Record<string, unknown>;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    example: { terminalId: 'T-0042', storeId: 'store-11', location: { city: 'London', country: 'GBR' } },
    description: `The point-of-sale terminal and store location. ${OPEN_OBJECT_NOTE}`,
  })
  @IsOptional() @IsObject() posTerminal?: Record<string, unknown>;
}
