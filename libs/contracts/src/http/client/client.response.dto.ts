import { ApiProperty } from '@nestjs/swagger';
import { CARD_CIPHER_ALGORITHM_NAME } from '../payment-method/card-cipher-fields';

/** The encryption algorithm of the Payment Method Cipher: AES-256-GCM, its key and IV wrapped by RSA-OAEP (SHA-256). */
export type CardCipherAlgorithm = typeof CARD_CIPHER_ALGORITHM_NAME;

export class ClientEventsAcceptedDto {
  @ApiProperty({ example: 'd-6f1b0c2e9a7d4b3f8e1a5c7d9b2f4e6a', description: 'The device the events were kept under.' }) deviceId!: string;
}

/** `POST /v2/client/events` → 202. */
export class ClientEventsAcceptedResponseDto {
  @ApiProperty({ type: 'integer', example: 202 }) status!: number;
  @ApiProperty({ type: 'integer', example: 1763800000123, description: 'Epoch milliseconds.' }) timestamp!: number;
  @ApiProperty({ type: () => ClientEventsAcceptedDto }) data!: ClientEventsAcceptedDto;
}

export class ClientEncryptionKeyDto {
  @ApiProperty({ type: 'integer', example: 1, description: 'Which of the data set\'s key pairs: sent back as the cipher\'s `keyIndex`.' }) keyIndex!: number;
  @ApiProperty({ enum: [CARD_CIPHER_ALGORITHM_NAME], example: CARD_CIPHER_ALGORITHM_NAME }) algorithm!: CardCipherAlgorithm;
  @ApiProperty({ example: 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA…', description: 'The RSA public key, base64 of its DER SubjectPublicKeyInfo (what WebCrypto imports as `spki`).' })
  publicKey!: string;
}

/** `GET /v2/client/encryption-key` → 200. */
export class ClientEncryptionKeyResponseDto {
  @ApiProperty({ type: 'integer', example: 200 }) status!: number;
  @ApiProperty({ type: 'integer', example: 1763800000123, description: 'Epoch milliseconds.' }) timestamp!: number;
  @ApiProperty({ type: () => ClientEncryptionKeyDto }) data!: ClientEncryptionKeyDto;
}
