import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { IsOptionalIdentifier } from '../shared/common-fields';
import { OpenDto } from '../../validation/open-dto';

/*
 * The Payment Method Cipher (specification §2.2; ADR-0015): a card's full details encrypted by a
 * client SDK. `aesKeyCiphertext` is base64 of RSA-OAEP-SHA256, under the data set's public key
 * `keyIndex`, of the 32-byte AES key followed by the 12-byte IV; `cardCiphertext` is base64 of the
 * AES-256-GCM ciphertext of the UTF-8 JSON `{pan, month, year, nameOnCard}` followed by its
 * 16-byte tag. The gateway decrypts it on arrival and keeps only a reduced card (docs/api.md,
 * "Encrypted cards"); these rules only bound its shape, and never echo a value.
 */

/** `methodType` of an encrypted card. */
export const CARD_CIPHER_METHOD_TYPE = 'paymentMethodCipher';
/** The one cipher algorithm: AES-256-GCM, its key and IV wrapped by RSA-OAEP with SHA-256. */
export const CARD_CIPHER_ALGORITHM_NAME = 'RSA_OAEP_SHA256_AES_256_GCM';
/** The cipher fields: what never leaves the gateway. */
export const CARD_CIPHER_FIELDS = ['cardCiphertext', 'aesKeyCiphertext', 'algorithm', 'keyIndex'] as const;
/** A card's JSON is some 200 bytes; this bounds it with room for a long name. */
export const MAX_CARD_CIPHERTEXT_LENGTH = 4096;
/** A 4096-bit RSA block is 683 base64 characters. */
export const MAX_AES_KEY_CIPHERTEXT_LENGTH = 1024;
export const MAX_CARD_KEY_INDEX = 2 ** 31 - 1;

const BASE64_PATTERN = /^[A-Za-z0-9+/]+={0,2}$/;

/** A required field is checked when absent too (its type's message); an optional one only when sent. */
function presence(required: boolean): PropertyDecorator {
  return required ? () => undefined : IsOptional();
}

function documented(required: boolean, options: Record<string, unknown>): PropertyDecorator {
  return required ? ApiProperty(options) : ApiPropertyOptional(options);
}

function IsBase64Field(required: boolean, maxLength: number, example: string, description: string): PropertyDecorator {
  return applyDecorators(
    documented(required, { type: 'string', format: 'byte', maxLength, pattern: BASE64_PATTERN.source, example, description }),
    presence(required),
    IsString({ message: 'must be a string' }),
    MaxLength(maxLength, { message: `must be at most ${maxLength} characters` }),
    Matches(BASE64_PATTERN, { message: 'must be base64 (RFC 4648, with padding)' }),
  );
}

/** `cardCiphertext`: base64 of the AES-256-GCM ciphertext of the card's JSON followed by its 16-byte tag. */
export function IsCardCiphertext(required: boolean): PropertyDecorator {
  return IsBase64Field(required, MAX_CARD_CIPHERTEXT_LENGTH, 'q1VxK0N3ZWJjcnlwdG8gZXhhbXBsZQ==', 'Base64 of the AES-256-GCM ciphertext of the UTF-8 JSON `{pan, month, year, nameOnCard}` followed by its 16-byte tag. Never stored, logged or echoed.');
}

/** `aesKeyCiphertext`: base64 of RSA-OAEP-SHA256 over the 32-byte AES key followed by the 12-byte IV. */
export function IsAesKeyCiphertext(required: boolean): PropertyDecorator {
  return IsBase64Field(required, MAX_AES_KEY_CIPHERTEXT_LENGTH, 'Jm9CcnNhLW9hZXAtd3JhcHBlZA==', 'Base64 of RSA-OAEP (SHA-256) under public key `keyIndex` of the 32-byte AES key followed by the 12-byte IV.');
}

/** `algorithm`: `RSA_OAEP_SHA256_AES_256_GCM`. */
export function IsCardCipherAlgorithm(required: boolean): PropertyDecorator {
  return applyDecorators(
    documented(required, { enum: [CARD_CIPHER_ALGORITHM_NAME], example: CARD_CIPHER_ALGORITHM_NAME }),
    presence(required),
    IsIn([CARD_CIPHER_ALGORITHM_NAME], { message: `must be ${CARD_CIPHER_ALGORITHM_NAME}` }),
  );
}

/** `keyIndex`: which of the data set's key pairs encrypted it (`GET /v2/client/encryption-key`). */
export function IsCardKeyIndex(required: boolean): PropertyDecorator {
  return applyDecorators(
    documented(required, { type: 'integer', minimum: 1, maximum: MAX_CARD_KEY_INDEX, example: 1, description: "The data set's public key used, as `GET /v2/client/encryption-key` named it." }),
    presence(required),
    IsInt({ message: 'must be an integer' }),
    Min(1, { message: 'must be at least 1' }),
    Max(MAX_CARD_KEY_INDEX, { message: `must be at most ${MAX_CARD_KEY_INDEX}` }),
  );
}

/**
 * The `paymentMethodCipher` variant of a payout or refund payment method: the four cipher fields
 * are required; other fields are kept as sent until the gateway replaces the whole object by the
 * card it decrypts (which keeps only `paymentMethodId` of them).
 */
export class PaymentMethodCipherDto extends OpenDto {
  @ApiProperty({ enum: [CARD_CIPHER_METHOD_TYPE], example: CARD_CIPHER_METHOD_TYPE, description: 'The variant discriminator.' })
  @IsIn([CARD_CIPHER_METHOD_TYPE]) methodType!: typeof CARD_CIPHER_METHOD_TYPE;

  @IsOptionalIdentifier('pm-card-7731', "The merchant's identifier of this saved payment method; kept on the decrypted card.")
  paymentMethodId?: string;

  @IsCardCiphertext(true) cardCiphertext!: string;
  @IsAesKeyCiphertext(true) aesKeyCiphertext!: string;
  @IsCardCipherAlgorithm(true) algorithm!: typeof CARD_CIPHER_ALGORITHM_NAME;
  @IsCardKeyIndex(true) keyIndex!: number;
}
