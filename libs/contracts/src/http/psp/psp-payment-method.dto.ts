import { IsAesKeyCiphertext, IsCardCipherAlgorithm, IsCardCiphertext, IsCardKeyIndex } from '../payment-method/card-cipher-fields';
import { IsOptionalInteger, IsOptionalKeyText, IsOptionalText } from '../../validation/scalar-fields.decorator';

/**
 * `paymentMethod` of POST /psp/transaction (specification §2.2, "Payment method (PSP transaction)").
 * With `methodType: "paymentMethodCipher"` it is a card encrypted by a client SDK: the four cipher
 * fields are required, and the gateway replaces them by `iin`, `lastFour`, expiry, name and a
 * keyed `instrumentId` (`methodType` becomes `card`; docs/api.md, "Encrypted cards").
 */
export class PspPaymentMethodDto {
  @IsOptionalText('card', 'Kind of payment method; the allowed values are not shown by the specification. `paymentMethodCipher`: a card encrypted by a client SDK, decrypted on arrival.') methodType?: string;
  @IsOptionalKeyText('inst-9f2c61d0', 'A stable token of the card number; links the card across customers and transactions.')
  instrumentId?: string;
  @IsOptionalText('424242', 'Issuer identification number: the first six to eight digits of the card number.') iin?: string;
  @IsOptionalText('4242', 'The last four digits of the card number.') lastFour?: string;
  @IsOptionalInteger(8, 'Expiry month (1 = January).') expiryMonth?: number;
  @IsOptionalInteger(2028, 'Expiry year.') expiryYear?: number;
  @IsOptionalText('visa', 'Card scheme.') scheme?: string;
  @IsOptionalText('Monzo Bank', 'The card issuer.') issuer?: string;
  @IsOptionalText('GBR', 'Country of the issuer, three-letter code.') countryIssued?: string;
  @IsOptionalText('apple_pay', 'The e-wallet the card was used through, if any.') eWallet?: string;
  @IsOptionalText('Ada Lovelace') nameOnCard?: string;
  @IsCardCiphertext(false) cardCiphertext?: string;
  @IsAesKeyCiphertext(false) aesKeyCiphertext?: string;
  @IsCardCipherAlgorithm(false) algorithm?: string;
  @IsCardKeyIndex(false) keyIndex?: number;
}
