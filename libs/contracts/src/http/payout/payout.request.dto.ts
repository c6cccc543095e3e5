import { ApiExtraModels } from '@nestjs/swagger';
import { IsRequiredNested } from '../../validation/nested.decorator';
import { IsTimestamp } from '../../validation/timestamp.decorator';
import { CardPaymentMethodDto } from '../payment-method/card-payment-method.dto';
import { PaymentMethodCipherDto } from '../payment-method/card-cipher-fields';
import { IsOptionalPaymentMethod, IsOptionalPaymentMethods, type PaymentMethodVariant } from '../payment-method/payment-method-variant';
import { IsOptionalEventType } from '../shared/common-fields';
import { SupplierDto } from '../supplier/supplier.dto';
import { PayoutDto } from './payout.dto';

/** POST /v2/payout (specification §4.8): a supplier payout, scored at the payout checkpoint. */
@ApiExtraModels(CardPaymentMethodDto, PaymentMethodCipherDto)
export class PayoutRequestDto {
  @IsTimestamp('When the payout was requested: Unix time in seconds, milliseconds or nanoseconds (normalised by magnitude).')
  timestamp!: number;

  @IsOptionalEventType() eventType?: string;

  @IsRequiredNested(() => PayoutDto) payout!: PayoutDto;

  @IsRequiredNested(() => SupplierDto, 'The supplier receiving the payout.') supplier!: SupplierDto;

  @IsOptionalPaymentMethod('Where the payout goes.') paymentMethod?: PaymentMethodVariant;

  @IsOptionalPaymentMethods('Deprecated: send `paymentMethod`. Still accepted and stored like it.')
  paymentMethods?: PaymentMethodVariant[];
}
