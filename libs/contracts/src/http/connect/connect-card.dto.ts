import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional, IsString } from 'class-validator';
import { CARD_CIPHER_METHOD_TYPE, IsAesKeyCiphertext, IsCardCipherAlgorithm, IsCardCiphertext, IsCardKeyIndex } from '../payment-method/card-cipher-fields';
import { IsOptionalInteger, IsOptionalKeyText } from '../../validation/scalar-fields.decorator';
import { IsOptionalTimestamp } from '../../validation/timestamp.decorator';
import { ConnectBillingAddressDto } from '../shared/connect-billing-address.dto';
import { IsOptionalIdentifier } from '../shared/common-fields';
import { IsOptionalNested, IsRequiredNested } from '../../validation/nested.decorator';

/**
 * The card of a connect payment method (specification §2.2, "Card payment method (connect)"). No
 * field is required: the graph identifies a card by `instrumentId`, else by `paymentMethodId`
 * scoped to its customer (ADR-0004).
 */
export class ConnectCardDto {
  @ApiPropertyOptional({ enum: [CARD_CIPHER_METHOD_TYPE], example: CARD_CIPHER_METHOD_TYPE, description: '`paymentMethodCipher`: this card is the cipher a client SDK made (`encryptCard`), with its four cipher fields; it is decrypted on arrival into `cardBin`, `cardLastFour`, expiry, name and a keyed `instrumentId` (docs/api.md, "Encrypted cards").' })
  @IsOptional() @IsIn([CARD_CIPHER_METHOD_TYPE], { message: `must be ${CARD_CIPHER_METHOD_TYPE}` }) methodType?: typeof CARD_CIPHER_METHOD_TYPE;
  @IsOptionalIdentifier('pm-card-0001', 'The merchant’s identifier of the saved payment method.') paymentMethodId?: string;
  @ApiPropertyOptional({ example: 'Work card' }) @IsOptional() @IsString() nickName?: string;
  @IsOptionalTimestamp('When the card was last verified (Unix time).') lastVerified?: number;
  @ApiPropertyOptional({ example: false, description: 'The merchant has banned this card.' }) @IsOptional() @IsBoolean() banned?: boolean;
  @ApiPropertyOptional({ example: true, description: 'The card is still in use on the account.' }) @IsOptional() @IsBoolean() active?: boolean;
  @IsOptionalTimestamp('When the card was added to the account (Unix time).') registrationTime?: number;
  @IsOptionalKeyText('ins-7d1f0c9a', 'Identifier of the physical card, the same for every account that saves it (e.g. the PSP fingerprint); links customers sharing a card.')
  instrumentId?: string;
  @ApiPropertyOptional({ example: '424242', description: 'First six (or eight) digits.' }) @IsOptional() @IsString() cardBin?: string;
  @ApiPropertyOptional({ example: '4242' }) @IsOptional() @IsString() cardLastFour?: string;
  @ApiPropertyOptional({ example: 'credit', description: 'E.g. `credit`, `debit`.' }) @IsOptional() @IsString() cardType?: string;
  @IsOptionalInteger(4) expiryMonth?: number;
  @IsOptionalInteger(2029) expiryYear?: number;
  @ApiPropertyOptional({ example: 'A LOVELACE' }) @IsOptional() @IsString() nameOnCard?: string;
  @ApiPropertyOptional({ example: true, description: 'Whether saving the card succeeded.' }) @IsOptional() @IsBoolean() successfulRegistration?: boolean;
  @ApiPropertyOptional({ example: 'Barclays' }) @IsOptional() @IsString() issuer?: string;
  @ApiPropertyOptional({ example: 'GBR', description: 'Country of the issuer, three-letter code.' }) @IsOptional() @IsString() countryIssued?: string;
  @ApiPropertyOptional({ example: false }) @IsOptional() @IsBoolean() prepaidCard?: boolean;
  @IsOptionalNested(() => ConnectBillingAddressDto, 'The cardholder’s billing address.') billingAddress?: ConnectBillingAddressDto;
  @ApiPropertyOptional({ example: 'Lovelace' }) @IsOptional() @IsString() billingFamilyName?: string;
  @ApiPropertyOptional({ example: 'Ada' }) @IsOptional() @IsString() billingGivenName?: string;
  @ApiPropertyOptional({ example: false }) @IsOptional() @IsBoolean() corporateCard?: boolean;
  @ApiPropertyOptional({ example: false }) @IsOptional() @IsBoolean() virtualCard?: boolean;
  @IsCardCiphertext(false) cardCiphertext?: string;
  @IsAesKeyCiphertext(false) aesKeyCiphertext?: string;
  @IsCardCipherAlgorithm(false) algorithm?: string;
  @IsCardKeyIndex(false) keyIndex?: number;
}

/** One item of connect `paymentMethods`: the specification wraps the card in `{card: {...}}`. */
export class ConnectPaymentMethodDto {
  @IsRequiredNested(() => ConnectCardDto, 'The card. Required: an item without it carries nothing to link.') card!: ConnectCardDto;
}
