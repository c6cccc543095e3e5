import { ApiExtraModels } from '@nestjs/swagger';
import { IsOptionalNested, IsOptionalNestedArray, IsRequiredNested } from '../../validation/nested.decorator';
import { IsTimestamp } from '../../validation/timestamp.decorator';
import { RefundCustomerDto } from '../customer/refund-customer.dto';
import { OrderDto } from '../order/order.dto';
import { CardPaymentMethodDto } from '../payment-method/card-payment-method.dto';
import { PaymentMethodCipherDto } from '../payment-method/card-cipher-fields';
import { IsOptionalPaymentMethods, type PaymentMethodVariant } from '../payment-method/payment-method-variant';
import { IsOptionalEventType } from '../shared/common-fields';
import { DeviceDto } from '../shared/device.dto';
import { RefundTransactionDto } from './refund-transaction.dto';
import { RefundDto } from './refund.dto';

/** POST /v2/refund (specification §4.9): a refund request, scored at the refund checkpoint. */
@ApiExtraModels(CardPaymentMethodDto, PaymentMethodCipherDto)
export class RefundRequestDto {
  @IsTimestamp('When the refund was requested: Unix time in seconds, milliseconds or nanoseconds (normalised by magnitude).')
  timestamp!: number;

  @IsOptionalEventType() eventType?: string;

  @IsRequiredNested(() => RefundCustomerDto, 'The customer requesting the refund.') customer!: RefundCustomerDto;

  @IsRequiredNested(() => RefundDto, 'The goods or services to be (or attempted to be) returned.') refund!: RefundDto;

  @IsRequiredNested(() => OrderDto, 'The order the goods or services were bought (or attempted to be bought) in.') order!: OrderDto;

  @IsOptionalPaymentMethods('Where the refund is issued.') paymentMethods?: PaymentMethodVariant[];

  @IsOptionalNestedArray(() => RefundTransactionDto, 'Attempts to refund a payment method for the order.') transactions?: RefundTransactionDto[];

  @IsOptionalNested(() => DeviceDto, 'The device the refund was requested from.') device?: DeviceDto;
}
