import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ValidateNested, type ValidationArguments, registerDecorator } from 'class-validator';
import { RequiredUnless } from '../../validation/mutually-exclusive.decorator';
import { IsTimestamp } from '../../validation/timestamp.decorator';
import { CustomerDto } from '../customer/customer.dto';
import { IsOptionalEventType, IsOptionalIdentifier } from '../shared/common-fields';
import { ScoreQueryDto } from '../shared/query-parameters';
import { VoucherRedemptionDto } from './voucher-redemption.dto';
import { IsRequiredNested } from '../../validation/nested.decorator';
import { IsObjectWhenSent } from '../shared/object-when-sent';

// Both may be sent (integrations often send the id next to the object); they must then agree,
// or the redemption would be scored for one customer and linked to another.
function NamesTheSameCustomerAs(idProperty: string): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'namesTheSameCustomerAs',
      target: target.constructor,
      propertyName: propertyName.toString(),
      constraints: [idProperty],
      options: { message: `must name the same customer as the top-level ${idProperty}` },
      validator: {
        validate(customer: unknown, args: ValidationArguments): boolean {
          const id = (args.object as Record<string, unknown>)[idProperty];
          if (id === undefined || typeof customer !== 'object' || customer === null) return true;
          const nestedId = (customer as { customerId?: unknown }).customerId;
          return nestedId === undefined || nestedId === id;
        },
      },
    });
  };
}

/**
 * POST /v2/paymentmethod/voucher (specification §4.10): a voucher redemption, scored like the
 * customer checkpoint. The customer is named by `customerId`, by `customer`, or by both when they
 * agree; one of them is required, because the answer and the voucher-abuse network are per customer.
 */
export class VoucherRedemptionRequestDto {
  @IsTimestamp() timestamp!: number;

  @IsOptionalEventType() eventType?: string;

  @IsRequiredNested(() => VoucherRedemptionDto, 'The redemption.') voucherRedemption!: VoucherRedemptionDto;

  @IsOptionalIdentifier(
    'ada@example.com',
    'The customer redeeming. For guest checkouts the lower-cased email address is recommended. Required unless `customer` is sent.',
  )
  customerId?: string;

  // Not @IsOptional: RequiredUnless must run when both are absent (nested validation skips an
  // absent value by itself).
  @ApiPropertyOptional({ type: () => CustomerDto, description: 'The customer redeeming, with details. If `customerId` is also sent, `customer.customerId` must equal it.' })
  @RequiredUnless('customerId') @IsObjectWhenSent() @NamesTheSameCustomerAs('customerId') @ValidateNested() @Type(() => CustomerDto)
  customer?: CustomerDto;
}

/** Query parameters of POST /v2/paymentmethod/voucher: the legacy `score` switch (ADR-0009). */
export class VoucherRedemptionQueryDto extends ScoreQueryDto {}

/** The customer redeeming: validation guarantees `customerId` or `customer` names one. */
export function redeemingCustomerId(request: Pick<VoucherRedemptionRequestDto, 'customerId' | 'customer'>): string {
  const customerId = request.customerId ?? request.customer?.customerId;
  if (customerId === undefined) throw new Error('a validated voucher redemption always names its customer');
  return customerId;
}
