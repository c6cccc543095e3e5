import { ApiProperty } from '@nestjs/swagger';
import { CARD_CIPHER_ALGORITHM_NAME } from '@ringfence/contracts';

export class CardPublicKeyDto {
  @ApiProperty({ type: 'integer', example: 2, description: 'Which of the data set\'s key pairs: a cipher names it as its `keyIndex`.' }) keyIndex!: number;
  @ApiProperty({ enum: [CARD_CIPHER_ALGORITHM_NAME], example: CARD_CIPHER_ALGORITHM_NAME }) algorithm!: typeof CARD_CIPHER_ALGORITHM_NAME;
  @ApiProperty({ example: 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA…', description: "The RSA-2048 public key: base64 of its DER SubjectPublicKeyInfo (WebCrypto's `importKey('spki', …)`)." })
  publicKey!: string;
}

export class ListedCardPublicKeyDto extends CardPublicKeyDto {
  @ApiProperty({ example: '2030-01-01T00:00:00.000Z', description: 'When the pair was made (ISO 8601).' }) createdAt!: string;
  @ApiProperty({ example: true, description: 'The key the SDKs are given now; the others still decrypt the ciphers made under them.' }) current!: boolean;
}

/** `POST /v2/account/encryption-keys` → 200: the new current key. */
export class RotatedCardKeyResponseDto {
  @ApiProperty({ type: 'integer', example: 200 }) status!: number;
  @ApiProperty({ type: 'integer', example: 1763800000123, description: 'Epoch milliseconds.' }) timestamp!: number;
  @ApiProperty({ type: () => CardPublicKeyDto }) data!: CardPublicKeyDto;
}

/** `GET /v2/account/encryption-keys` → 200: every key pair's public half, oldest first. */
export class CardKeyListResponseDto {
  @ApiProperty({ type: 'integer', example: 200 }) status!: number;
  @ApiProperty({ type: 'integer', example: 1763800000123, description: 'Epoch milliseconds.' }) timestamp!: number;
  @ApiProperty({ type: () => [ListedCardPublicKeyDto] }) data!: ListedCardPublicKeyDto[];
}
