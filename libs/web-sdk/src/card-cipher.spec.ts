import { createDecipheriv, generateKeyPairSync, privateDecrypt, constants } from 'node:crypto';
import { webcrypto } from 'node:crypto';
import { CIPHER_ALGORITHM, type EncryptionKey, type PaymentMethodCipher, encryptCard, normalizeCard } from './card-cipher';

const crypto = webcrypto as unknown as Crypto;
const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
const spkiBase64 = pair.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
const key = (overrides: Partial<EncryptionKey> = {}): EncryptionKey => ({ keyIndex: 3, algorithm: CIPHER_ALGORITHM, publicKey: spkiBase64, ...overrides });
const card = { pan: '4242 4242 4242 4242', month: '7', year: '31', nameOnCard: ' Ada Lovelace ' };

/** ADR-0015's byte layout, read back with node:crypto alone, as the service does. */
function decrypt(cipher: PaymentMethodCipher): { plaintext: unknown; aesKeyAndIv: Buffer; cardBytes: Buffer } {
  const aesKeyAndIv = privateDecrypt({ key: pair.privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(cipher.aesKeyCiphertext, 'base64'));
  const cardBytes = Buffer.from(cipher.cardCiphertext, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', aesKeyAndIv.subarray(0, 32), aesKeyAndIv.subarray(32));
  decipher.setAuthTag(cardBytes.subarray(cardBytes.length - 16));
  const plaintext = Buffer.concat([decipher.update(cardBytes.subarray(0, cardBytes.length - 16)), decipher.final()]);
  return { plaintext: JSON.parse(plaintext.toString('utf8')), aesKeyAndIv, cardBytes };
}

describe('encryptCard', () => {
  it('makes a cipher that node:crypto decrypts with the private key: RSA-OAEP-SHA256 over key || IV, AES-256-GCM with the tag last', async () => {
    const cipher = await encryptCard(crypto, key(), card);

    expect(cipher).toMatchObject({ methodType: 'paymentMethodCipher', algorithm: 'RSA_OAEP_SHA256_AES_256_GCM', keyIndex: 3 });
    const { plaintext, aesKeyAndIv, cardBytes } = decrypt(cipher);
    expect(plaintext).toEqual({ pan: '4242424242424242', month: 7, year: 2031, nameOnCard: 'Ada Lovelace' });
    expect(aesKeyAndIv).toHaveLength(32 + 12);
    expect(Buffer.from(cipher.aesKeyCiphertext, 'base64')).toHaveLength(256);
    expect(cardBytes).toHaveLength(Buffer.byteLength(JSON.stringify(plaintext)) + 16);
    expect(cipher.cardCiphertext).not.toContain('4242');
  });

  it('refuses a tampered ciphertext: the tag authenticates it', async () => {
    const cipher = await encryptCard(crypto, key(), card);
    const bytes = Buffer.from(cipher.cardCiphertext, 'base64');
    bytes[0] ^= 1;

    expect(() => decrypt({ ...cipher, cardCiphertext: bytes.toString('base64') })).toThrow();
  });

  it('uses a fresh key and IV for every card', async () => {
    const [first, second] = [await encryptCard(crypto, key(), card), await encryptCard(crypto, key(), card)];

    expect(first.cardCiphertext).not.toBe(second.cardCiphertext);
    expect(decrypt(first).aesKeyAndIv.equals(decrypt(second).aesKeyAndIv)).toBe(false);
  });

  it('takes the public key as PEM or as a JSON Web Key as well as base64 DER', async () => {
    const pem = pair.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const jwk = pair.publicKey.export({ format: 'jwk' }) as JsonWebKey;

    expect(decrypt(await encryptCard(crypto, key({ publicKey: pem }), card)).plaintext).toMatchObject({ pan: '4242424242424242' });
    expect(decrypt(await encryptCard(crypto, key({ publicKey: jwk }), card)).plaintext).toMatchObject({ pan: '4242424242424242' });
  });

  it('refuses another algorithm and a key that is not RSA', async () => {
    await expect(encryptCard(crypto, key({ algorithm: 'RSA_PKCS1_AES_128_CBC' }), card)).rejects.toThrow(/unknown algorithm/);
    await expect(encryptCard(crypto, key({ publicKey: 'bm90IGEga2V5' }), card)).rejects.toThrow();
  });
});

describe('normalizeCard', () => {
  it('keeps the digits of the number, makes month and year integers and a two-digit year 20YY, and leaves out an empty name', () => {
    expect(normalizeCard({ pan: '4000-0566-5566-5556', month: '03', year: 2029, nameOnCard: '  ' })).toEqual({ pan: '4000056655665556', month: 3, year: 2029 });
  });

  it.each([
    [{ pan: '4242', month: 1, year: 2030 }, /pan/],
    [{ pan: '4242x242424242424', month: 1, year: 2030 }, /pan/],
    [{ pan: '4242424242424242', month: 13, year: 2030 }, /month/],
    [{ pan: '4242424242424242', month: 1, year: 1999 }, /year/],
  ])('refuses %j', (details, message) => {
    expect(() => normalizeCard(details)).toThrow(message);
  });
});
