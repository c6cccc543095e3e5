import { IsOptionalNestedArray } from '../../validation/nested.decorator';
import { IsOptionalAmount, IsOptionalText } from '../../validation/scalar-fields.decorator';
import { IsOptionalTimestamp } from '../../validation/timestamp.decorator';
import { IsOptionalCurrency, IsOptionalIdentifier } from '../shared/common-fields';
import { ItemDto } from '../order/item.dto';

/**
 * `refund` of POST /v2/refund: the goods or services to be (or attempted to be) returned
 * (specification §2.2, "Refund"). `refundId` is optional, as ADR-0009 does not list it among
 * the required identifiers; without it the refund is scored but not stored as an entity.
 */
export class RefundDto {
  @IsOptionalIdentifier('rfd-10442', "The merchant's identifier of the refund.") refundId?: string;
  @IsOptionalText('OPEN', 'Value seen: `OPEN`.') status?: string;
  @IsOptionalTimestamp('When the customer asked for the refund (Unix time).') refundRequestTime?: number;
  @IsOptionalTimestamp('When the refund was issued (Unix time).') refundIssuedTime?: number;
  @IsOptionalAmount(1099, 'Amount to refund: an integer in minor units of the currency.') amount?: number;
  @IsOptionalCurrency() currency?: string;
  @IsOptionalAmount(250, 'The part of the order that cannot be refunded (delivery fee, …): an integer in minor units.') nonRefundableAmount?: number;
  @IsOptionalNestedArray(() => ItemDto, 'The items returned.') items?: ItemDto[];
}
