import { type KeyObject, constants, createDecipheriv, createHmac, privateDecrypt } from 'node:crypto';

/*
 * The Payment Method Cipher's cryptography (ADR-0015, docs/api.md "Encrypted cards"): the AES key
 * and IV unwrapped with the data set's RSA private key (OAEP, SHA-256 for both the hash and MGF1,
 * as WebCrypto's RSA-OAEP with SHA-256), the card's JSON decrypted with AES-256-GCM, its number
 * checked with Luhn, and a keyed hash of it as the card's `instrumentId`. No message here holds
 * any part of a cipher, a key or a card number.
 */

const AES_KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const MIN_PAN_DIGITS = 12;
const MAX_PAN_DIGITS = 19;
const MAX_NAME_LENGTH = 200;
/** Separators a card number may be typed with; anything else is not a card number. */
const PAN_SEPARATORS = /[\s-]/g;

/** A cipher that cannot be read: the field to blame and why, never a value. */
export class CardCipherError extends Error {
  constructor(
    readonly field: 'cardCiphertext' | 'aesKeyCiphertext' | 'keyIndex',
    message: string,
  ) {
    super(message);
    this.name = 'CardCipherError';
  }
}

/** What the SDK encrypted: `{pan, month, year, nameOnCard}`, read and checked. */
export interface DecryptedCard {
  /** Digits only. */
  pan: string;
  month: number;
  /** Four digits. */
  year: number;
  nameOnCard?: string;
}

/** The AES-256-GCM key and IV that `aesKeyCiphertext` wraps. */
export interface WrappedKey {
  key: Buffer;
  iv: Buffer;
}

/** Unwraps `aesKeyCiphertext` (base64 of RSA-OAEP-SHA256 over the key and the IV). */
export function unwrapAesKey(privateKey: KeyObject, aesKeyCiphertext: string): WrappedKey {
  let unwrapped: Buffer;
  try {
    unwrapped = privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(aesKeyCiphertext, 'base64'));
  } catch {
    throw new CardCipherError('aesKeyCiphertext', "does not decrypt with this data set's public key keyIndex (RSA-OAEP, SHA-256)");
  }
  if (unwrapped.length !== AES_KEY_BYTES + IV_BYTES) {
    unwrapped.fill(0);
    throw new CardCipherError('aesKeyCiphertext', `must wrap a ${AES_KEY_BYTES}-byte AES key followed by a ${IV_BYTES}-byte IV`);
  }
  return { key: unwrapped.subarray(0, AES_KEY_BYTES), iv: unwrapped.subarray(AES_KEY_BYTES) };
}

/** Decrypts `cardCiphertext` (base64 of the AES-256-GCM ciphertext and its 16-byte tag) and reads the card. */
export function decryptCard({ key, iv }: WrappedKey, cardCiphertext: string): DecryptedCard {
  const sealed = Buffer.from(cardCiphertext, 'base64');
  if (sealed.length <= TAG_BYTES) throw new CardCipherError('cardCiphertext', `must hold a ciphertext followed by its ${TAG_BYTES}-byte tag`);
  let plaintext: Buffer;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    plaintext = Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]);
  } catch {
    throw new CardCipherError('cardCiphertext', 'does not decrypt (AES-256-GCM: the key, IV or tag does not match)');
  } finally {
    key.fill(0);
  }
  try {
    return readCard(parsedJson(plaintext));
  } finally {
    plaintext.fill(0);
  }
}

function parsedJson(plaintext: Buffer): unknown {
  try {
    return JSON.parse(plaintext.toString('utf8')) as unknown;
  } catch {
    throw new CardCipherError('cardCiphertext', 'must encrypt the UTF-8 JSON {pan, month, year, nameOnCard}');
  }
}

/** The card's fields, each checked; the messages name the field, never its value. */
function readCard(json: unknown): DecryptedCard {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new CardCipherError('cardCiphertext', 'must encrypt a JSON object {pan, month, year, nameOnCard}');
  const { pan, month, year, nameOnCard } = json as Record<string, unknown>;
  const card: DecryptedCard = { pan: cardNumber(pan), month: expiryMonth(month), year: expiryYear(year) };
  if (nameOnCard !== undefined && nameOnCard !== null) {
    if (typeof nameOnCard !== 'string' || nameOnCard.length > MAX_NAME_LENGTH) throw new CardCipherError('cardCiphertext', `nameOnCard must be a string of at most ${MAX_NAME_LENGTH} characters`);
    if (nameOnCard.trim() !== '') card.nameOnCard = nameOnCard.trim();
  }
  return card;
}

function cardNumber(pan: unknown): string {
  if (typeof pan !== 'string') throw new CardCipherError('cardCiphertext', 'pan must be a string of digits');
  const digits = pan.replace(PAN_SEPARATORS, '');
  if (!/^[0-9]+$/.test(digits) || digits.length < MIN_PAN_DIGITS || digits.length > MAX_PAN_DIGITS) {
    throw new CardCipherError('cardCiphertext', `pan must be ${MIN_PAN_DIGITS} to ${MAX_PAN_DIGITS} digits`);
  }
  if (!passesLuhn(digits)) throw new CardCipherError('cardCiphertext', 'pan fails the Luhn check');
  return digits;
}

/** A month 1 to 12, as a number or a string of digits (`"04"`). */
function expiryMonth(month: unknown): number {
  const value = integerOf(month);
  if (value === undefined || value < 1 || value > 12) throw new CardCipherError('cardCiphertext', 'month must be an integer from 1 to 12');
  return value;
}

/** A year of four digits, or two (`29` is 2029). */
function expiryYear(year: unknown): number {
  const value = integerOf(year);
  if (value !== undefined && value >= 0 && value <= 99) return 2000 + value;
  if (value === undefined || value < 2000 || value > 2099) throw new CardCipherError('cardCiphertext', 'year must be an integer of four digits (2000-2099) or two');
  return value;
}

function integerOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isInteger(value) ? value : undefined;
  if (typeof value === 'string' && /^[0-9]{1,4}$/.test(value)) return Number(value);
  return undefined;
}

/** The Luhn (mod 10) check of a string of digits. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let position = 0; position < digits.length; position += 1) {
    let digit = digits.charCodeAt(digits.length - 1 - position) - 48;
    if (position % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** The BIN kept: the first eight digits of a number of 16 digits or more, else the first six (PCI DSS's truncation). */
export function cardBinOf(pan: string): string {
  return pan.slice(0, pan.length >= 16 ? 8 : 6);
}

/** `card_` and the base64url HMAC-SHA256 of the number under the data set's instrument secret. */
export function instrumentIdOf(secret: Buffer, pan: string): string {
  return `card_${createHmac('sha256', secret).update(pan, 'utf8').digest('base64url')}`;
}
