import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { IsOptionalNested } from '../../validation/nested.decorator';
import { IsOptionalFlag, IsOptionalInteger, IsOptionalKeyText, IsOptionalText } from '../../validation/scalar-fields.decorator';
import { IsOptionalTimestamp } from '../../validation/timestamp.decorator';
import { IsOptionalIdentifier } from '../shared/common-fields';
import { LocationDto } from '../shared/location.dto';

/**
 * The card variant of a payout or refund payment method (specification §2.2, "Card payment
 * method (v2 payout, refund)"). One class serves both: the few fields the specification lists for
 * only one of the two (`paymentAccountReference` for payouts; `eWallet`, `compromised`,
 * `compromisedReason`, `billingFamilyName`, `billingGivenName` for refunds) are accepted on both.
 */
export class CardPaymentMethodDto {
  @ApiProperty({ enum: ['card'], example: 'card', description: 'The variant discriminator.' })
  @IsIn(['card']) methodType!: 'card';

  @IsOptionalIdentifier('pm-card-7731', "The merchant's identifier of this saved payment method.")
  paymentMethodId?: string;

  @IsOptionalText('visa', 'Card scheme.') scheme?: string;

  @IsOptionalKeyText('inst-9f2c61d0', 'A stable token of the card number (the same card gives the same value); links cards across customers.')
  instrumentId?: string;

  @IsOptionalText('V0010013822095285498724436142', 'Payment account reference (PAR) from the scheme; payouts.')
  paymentAccountReference?: string;

  @IsOptionalText('424242', 'The first six to eight digits of the card number.') cardBin?: string;
  @IsOptionalText('4242', 'The last four digits of the card number.') cardLastFour?: string;
  @IsOptionalInteger(8, 'Expiry month (1 = January).') expiryMonth?: number;
  @IsOptionalInteger(2028, 'Expiry year.') expiryYear?: number;
  @IsOptionalText('apple_pay', 'The e-wallet the card was used through, if any; refunds.') eWallet?: string;
  @IsOptionalText('Ada Lovelace') nameOnCard?: string;

  @IsOptionalNested(() => LocationDto, 'The cardholder address.')
  billingAddress?: LocationDto;

  @IsOptionalFlag(false) corporateCard?: boolean;
  @IsOptionalFlag(false) virtualCard?: boolean;
  @IsOptionalFlag(true, 'Whether saving the card (e.g. its verification) succeeded.') successfulRegistration?: boolean;
  @IsOptionalTimestamp('When the card was saved (Unix time).') registrationTime?: number;
  @IsOptionalTimestamp('When the card was last verified (Unix time).') lastVerified?: number;
  @IsOptionalFlag(false, 'Whether the merchant knows the card to be compromised; refunds.') compromised?: boolean;
  @IsOptionalText('reported_stolen', 'Why the card is considered compromised; refunds.') compromisedReason?: string;
  @IsOptionalText('Lovelace', 'Family name on the billing record; refunds.') billingFamilyName?: string;
  @IsOptionalText('Ada', 'Given name on the billing record; refunds.') billingGivenName?: string;
}
