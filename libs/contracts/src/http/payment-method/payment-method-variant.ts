import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { type ClassTransformOptions, Transform, plainToInstance } from 'class-transformer';
import { IsArray, IsIn, IsObject, IsOptional, ValidateNested } from 'class-validator';
import { ReadFromJson } from '../../validation/json-readings';
import { arrayItemsAsNull } from '../../validation/nested.decorator';
import { OpenDto, isJsonObject, toOpenDto, wireShapeOf } from '../../validation/open-dto';
import { MAX_IDENTIFIER_LENGTH } from '../../validation/patterns';
import { IsOptionalIdentifier } from '../shared/common-fields';
import { CardPaymentMethodDto } from './card-payment-method.dto';
import { CARD_CIPHER_METHOD_TYPE, PaymentMethodCipherDto } from './card-cipher-fields';

/**
 * `methodType` of each payment-method variant (specification §2.2). Only `card` is shown; the
 * other values are ours, camelCase like every other name of the interface. `directDebit`,
 * `bankTransfer` and `other` are deprecated (specification §9) but still accepted.
 */
export const PAYMENT_METHOD_TYPES = [
  'card',
  'paymentMethodCipher',
  'cash',
  'bankAccount',
  'paypal',
  'credit',
  'invoice',
  'wallet',
  'fromTransaction',
  'removal',
  'directDebit',
  'bankTransfer',
  'other',
] as const;
export type PaymentMethodType = (typeof PAYMENT_METHOD_TYPES)[number];
export type OpenPaymentMethodType = Exclude<PaymentMethodType, 'card' | typeof CARD_CIPHER_METHOD_TYPE>;

/**
 * A payment-method variant other than card. The specification does not show these variants'
 * fields, so only the discriminator and `paymentMethodId` are checked and everything else is kept
 * as sent (see `OpenDto`).
 */
export class OpenPaymentMethodDto extends OpenDto {
  @IsIn(PAYMENT_METHOD_TYPES, { message: `must be one of ${PAYMENT_METHOD_TYPES.join(', ')}` })
  methodType!: OpenPaymentMethodType;

  @IsOptionalIdentifier('pm-bank-2201', "The merchant's identifier of this saved payment method.")
  paymentMethodId?: string;
}

export type PaymentMethodVariant = CardPaymentMethodDto | PaymentMethodCipherDto | OpenPaymentMethodDto;

/**
 * Picks the variant's class by `methodType`. Not class-transformer's `@Type` discriminator: it
 * would make every variant a declared class, and the strict validation would then strip the open
 * variants' fields. A value that is not an object, or is an array, is left for `IsObject` to
 * report; an unknown `methodType` becomes an open variant whose `methodType` check lists the
 * allowed values.
 */
function toPaymentMethodVariant(value: unknown, options: ClassTransformOptions): unknown {
  const wire = wireShapeOf(value);
  if (!isJsonObject(wire)) return wire;
  if (wire['methodType'] === 'card') return plainToInstance(CardPaymentMethodDto, wire, options);
  if (wire['methodType'] === CARD_CIPHER_METHOD_TYPE) return toOpenDto(PaymentMethodCipherDto, wire, options);
  return toOpenDto(OpenPaymentMethodDto, wire, options);
}

/** The same choice on parsed JSON, where the variant is validated in place (`registerJsonReading`). */
const variantClassOf = (object: Record<string, unknown>) =>
  object['methodType'] === 'card' ? CardPaymentMethodDto : object['methodType'] === CARD_CIPHER_METHOD_TYPE ? PaymentMethodCipherDto : OpenPaymentMethodDto;

const OPEN_VARIANT_SCHEMA = {
  type: 'object',
  title: 'Other payment-method variant',
  required: ['methodType'],
  properties: {
    methodType: { type: 'string', enum: PAYMENT_METHOD_TYPES.filter((type) => type !== 'card' && type !== CARD_CIPHER_METHOD_TYPE) },
    paymentMethodId: { type: 'string', minLength: 1, maxLength: MAX_IDENTIFIER_LENGTH, example: 'pm-bank-2201' },
  },
  additionalProperties: true,
  description: 'A variant whose fields the specification does not show: every field sent is kept as sent.',
};

// A reference, so the class whose property uses these decorators needs
// `@ApiExtraModels(CardPaymentMethodDto, PaymentMethodCipherDto)` for the document to define the schemas it points to.
const VARIANT_SCHEMA = { oneOf: [{ $ref: getSchemaPath(CardPaymentMethodDto) }, { $ref: getSchemaPath(PaymentMethodCipherDto) }, OPEN_VARIANT_SCHEMA] };

const VARIANT_DESCRIPTION =
  '`methodType` selects the variant: `card` is validated field by field; `paymentMethodCipher` (a card encrypted by a client SDK) needs its four cipher fields and is decrypted on arrival into a `card` with only `cardBin`, `cardLastFour`, `expiryMonth`, `expiryYear`, `nameOnCard`, `instrumentId` and `paymentMethodId` (docs/api.md, "Encrypted cards"); `cash`, `bankAccount`, `paypal`, `credit`, `invoice`, `wallet`, `fromTransaction`, `removal` and the deprecated `directDebit`, `bankTransfer`, `other` are accepted with any further fields.';

/** An optional payment-method variant (payout `paymentMethod`). */
export function IsOptionalPaymentMethod(description: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ ...VARIANT_SCHEMA, description: `${description} ${VARIANT_DESCRIPTION}` }),
    Transform(({ obj, key, options }) => toPaymentMethodVariant((obj as Record<string, unknown>)[key], options), { toClassOnly: true }),
    ReadFromJson({ classOf: variantClassOf }),
    IsOptional(),
    IsObject(),
    ValidateNested(),
  );
}

/** An optional array of payment-method variants (refund and the deprecated payout `paymentMethods`). */
export function IsOptionalPaymentMethods(description: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: 'array', items: VARIANT_SCHEMA, description: `${description} ${VARIANT_DESCRIPTION}` }),
    Transform(
      ({ obj, key, options }) => {
        const value = (obj as Record<string, unknown>)[key];
        // An array item that is itself an array would be iterated by nested validation and pass
        // when empty; null makes it fail as "must be an object" like any other non-object. A
        // single object instead of an array is "must be an array" and is checked as one variant.
        if (!Array.isArray(value)) return toPaymentMethodVariant(value, options);
        return value.map((item: unknown) => (Array.isArray(item) ? null : toPaymentMethodVariant(item, options)));
      },
      { toClassOnly: true },
    ),
    ReadFromJson({ classOf: variantClassOf, convert: arrayItemsAsNull }),
    IsOptional(),
    IsArray(),
    ValidateNested({ each: true }),
  );
}
