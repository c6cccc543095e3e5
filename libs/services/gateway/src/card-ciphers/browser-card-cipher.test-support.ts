import { webcrypto } from 'node:crypto';

/** What a client SDK encrypts. */
export interface CardToEncrypt {
  pan: string;
  month: number | string;
  year: number | string;
  nameOnCard?: string;
}

/** The Payment Method Cipher as an SDK hands it to the merchant. */
export interface BrowserCardCipher {
  methodType: 'paymentMethodCipher';
  cardCiphertext: string;
  aesKeyCiphertext: string;
  algorithm: 'RSA_OAEP_SHA256_AES_256_GCM';
  keyIndex: number;
}

const base64 = (bytes: ArrayBuffer | Uint8Array): string => Buffer.from(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)).toString('base64');

/**
 * Encrypts a card exactly as a browser's WebCrypto does it (ADR-0015's format, the web SDK's
 * `encryptCard`): a fresh AES-256-GCM key and 12-byte IV, the card's UTF-8 JSON encrypted (the
 * 16-byte tag appended by WebCrypto), and the key followed by the IV wrapped by RSA-OAEP SHA-256
 * under the public key (base64 DER SPKI, as `GET /v2/client/encryption-key` answers it).
 */
export async function encryptCardLikeABrowser(publicKey: string, keyIndex: number, card: CardToEncrypt): Promise<BrowserCardCipher> {
  const { subtle } = webcrypto;
  const rsa = await subtle.importKey('spki', Buffer.from(publicKey, 'base64'), { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']);
  const aesKeyBytes = webcrypto.getRandomValues(new Uint8Array(32));
  const iv = webcrypto.getRandomValues(new Uint8Array(12));
  const aes = await subtle.importKey('raw', aesKeyBytes, { name: 'AES-GCM' }, false, ['encrypt']);
  const cardCiphertext = await subtle.encrypt({ name: 'AES-GCM', iv, tagLength: 128 }, aes, new TextEncoder().encode(JSON.stringify(card)));
  const wrapped = new Uint8Array(44);
  wrapped.set(aesKeyBytes, 0);
  wrapped.set(iv, 32);
  const aesKeyCiphertext = await subtle.encrypt({ name: 'RSA-OAEP' }, rsa, wrapped);
  return { methodType: 'paymentMethodCipher', cardCiphertext: base64(cardCiphertext), aesKeyCiphertext: base64(aesKeyCiphertext), algorithm: 'RSA_OAEP_SHA256_AES_256_GCM', keyIndex };
}
