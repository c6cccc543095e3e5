import { fromBase64, randomBytes, toBase64 } from './bytes';

/** The only algorithm of ADR-0015's Payment Method Cipher. */
export const CIPHER_ALGORITHM = 'RSA_OAEP_SHA256_AES_256_GCM';
const AES_KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BITS = 128;

/** What the shopper typed. Spaces and dashes in the number are dropped; a two-digit year is 20YY. */
export interface CardDetails {
  pan: string;
  month: number | string;
  year: number | string;
  nameOnCard?: string;
}

/** The payment method the merchant sends instead of the card (the specification's Payment Method Cipher). */
export interface PaymentMethodCipher {
  methodType: 'paymentMethodCipher';
  cardCiphertext: string;
  aesKeyCiphertext: string;
  algorithm: typeof CIPHER_ALGORITHM;
  keyIndex: number;
}

/**
 * `GET /v2/client/encryption-key`'s `data`. The public key is read as PEM (`-----BEGIN PUBLIC
 * KEY-----`), as base64 of its DER SubjectPublicKeyInfo, or as a JSON Web Key object.
 */
export interface EncryptionKey {
  keyIndex: number;
  algorithm: string;
  publicKey: string | JsonWebKey;
}

const RSA_OAEP: RsaHashedImportParams = { name: 'RSA-OAEP', hash: 'SHA-256' };

/** The server's public key as a WebCrypto key that can only encrypt. */
export function importPublicKey(subtle: SubtleCrypto, publicKey: EncryptionKey['publicKey']): Promise<CryptoKey> {
  if (typeof publicKey !== 'string') return subtle.importKey('jwk', publicKey, RSA_OAEP, false, ['encrypt']);
  const base64 = publicKey.replace(/-----(BEGIN|END) PUBLIC KEY-----/g, '');
  return subtle.importKey('spki', fromBase64(base64), RSA_OAEP, false, ['encrypt']);
}

/** The plaintext's fields as the service reads them: the digits of the number, month and four-digit year as integers. */
export function normalizeCard(card: CardDetails): { pan: string; month: number; year: number; nameOnCard?: string } {
  const pan = String(card.pan ?? '').replace(/[\s-]/g, '');
  if (!/^[0-9]{12,19}$/.test(pan)) throw new TypeError('Ringfence.encryptCard: pan must be 12 to 19 digits');
  const month = Number(card.month);
  if (!Number.isInteger(month) || month < 1 || month > 12) throw new TypeError('Ringfence.encryptCard: month must be 1 to 12');
  let year = Number(card.year);
  if (Number.isInteger(year) && year >= 0 && year < 100) year += 2000;
  if (!Number.isInteger(year) || year < 2000 || year > 2099) throw new TypeError('Ringfence.encryptCard: year must be a year such as 2031 (or 31)');
  const nameOnCard = card.nameOnCard?.trim();
  return nameOnCard ? { pan, month, year, nameOnCard } : { pan, month, year };
}

/**
 * ADR-0015's cipher: the card as UTF-8 JSON under a fresh AES-256-GCM key and IV
 * (`cardCiphertext`: the ciphertext followed by its 16-byte tag, as WebCrypto returns it), and
 * that key followed by the IV (44 bytes) under the service's RSA-OAEP-SHA256 public key
 * (`aesKeyCiphertext`). Both base64. The AES key never leaves this function unwrapped.
 */
export async function encryptCard(crypto: Crypto, key: EncryptionKey, card: CardDetails): Promise<PaymentMethodCipher> {
  if (key.algorithm !== CIPHER_ALGORITHM) throw new Error(`Ringfence.encryptCard: unknown algorithm ${JSON.stringify(key.algorithm)}`);
  const plaintext = new TextEncoder().encode(JSON.stringify(normalizeCard(card)));
  const { subtle } = crypto;
  const publicKey = await importPublicKey(subtle, key.publicKey);
  const keyAndIv = randomBytes(crypto, AES_KEY_BYTES + IV_BYTES);
  const aesKeyBytes = keyAndIv.subarray(0, AES_KEY_BYTES);
  const iv = keyAndIv.slice(AES_KEY_BYTES);
  try {
    const aesKey = await subtle.importKey('raw', aesKeyBytes, { name: 'AES-GCM' }, false, ['encrypt']);
    const cardCiphertext = new Uint8Array(await subtle.encrypt({ name: 'AES-GCM', iv, tagLength: TAG_BITS }, aesKey, plaintext));
    const aesKeyCiphertext = new Uint8Array(await subtle.encrypt({ name: 'RSA-OAEP' }, publicKey, keyAndIv));
    return { methodType: 'paymentMethodCipher', cardCiphertext: toBase64(cardCiphertext), aesKeyCiphertext: toBase64(aesKeyCiphertext), algorithm: CIPHER_ALGORITHM, keyIndex: key.keyIndex };
  } finally {
    keyAndIv.fill(0);
    plaintext.fill(0);
  }
}
