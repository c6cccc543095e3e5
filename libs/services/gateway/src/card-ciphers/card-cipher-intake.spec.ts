import { InMemoryCardKeyRepository } from '@ringfence/accounts/testing';
import { AppError } from '@ringfence/platform';
import { type CardToEncrypt, encryptCardLikeABrowser } from './browser-card-cipher.test-support';
import { CardCipherIntake } from './card-cipher-intake.service';
import { CardEncryptionKeys } from './card-encryption-keys.service';

const VISA = '4111111111111111';
const AMEX = '378282246310005';
const CARD: CardToEncrypt = { pan: VISA, month: 4, year: 2029, nameOnCard: 'A LOVELACE' };
const A = { accountId: 'acc_a', environment: 'test' as const };
const B = { accountId: 'acc_b', environment: 'test' as const };

function setup() {
  const repository = new InMemoryCardKeyRepository();
  const keys = new CardEncryptionKeys(repository);
  const intake = new CardCipherIntake(keys);
  const cipher = async (owner: typeof A, card: CardToEncrypt = CARD) => {
    const { keyIndex, publicKey } = await keys.currentPublicKey(owner.accountId, owner.environment);
    return encryptCardLikeABrowser(publicKey, keyIndex, card);
  };
  return { repository, keys, intake, cipher };
}

/** The 400's message, or a failure when the call did not throw one. */
async function refusal(promise: Promise<unknown>): Promise<string> {
  const error: unknown = await promise.then(() => undefined, (thrown: unknown) => thrown);
  expect(error).toBeInstanceOf(AppError);
  expect(error).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
  return (error as AppError).message;
}

describe(CardCipherIntake.name, () => {
  it('replaces a payout or refund cipher by a card with BIN, last four, expiry, name and a keyed instrumentId', async () => {
    const { intake, cipher } = setup();
    const payload = { paymentMethods: [{ ...(await cipher(A)), paymentMethodId: 'pm-1', billingAddress: { city: 'London' } }] };

    await intake.reduce(A, payload, false);

    expect(payload.paymentMethods[0]).toEqual({
      methodType: 'card',
      paymentMethodId: 'pm-1',
      cardBin: '41111111',
      cardLastFour: '1111',
      expiryMonth: 4,
      expiryYear: 2029,
      nameOnCard: 'A LOVELACE',
      instrumentId: expect.stringMatching(/^card_[A-Za-z0-9_-]{43}$/),
    });
    expect(JSON.stringify(payload)).not.toContain(VISA);
  });

  it('gives the same card the same instrumentId in a data set, and a different one in another account', async () => {
    const { intake, cipher } = setup();
    const first = { paymentMethod: await cipher(A) };
    const again = { paymentMethod: await cipher(A, { pan: '4111 1111 1111 1111', month: '04', year: '29' }) };
    const elsewhere = { paymentMethod: await cipher(B) };

    for (const [owner, payload] of [[A, first], [A, again], [B, elsewhere]] as const) await intake.reduce(owner, payload, false);

    const ids = [first, again, elsewhere].map((payload) => (payload.paymentMethod as unknown as { instrumentId: string }).instrumentId);
    expect(ids[1]).toBe(ids[0]);
    expect(ids[2]).not.toBe(ids[0]);
    expect(again.paymentMethod).toMatchObject({ expiryMonth: 4, expiryYear: 2029 });
  });

  it("keeps six digits of a number shorter than 16 as the BIN", async () => {
    const { intake, cipher } = setup();
    const payload = { paymentMethod: await cipher(A, { pan: AMEX, month: 12, year: 2031 }) };

    await intake.reduce(A, payload, false);

    expect(payload.paymentMethod).toMatchObject({ cardBin: '378282', cardLastFour: '0005' });
    expect(payload.paymentMethod).not.toHaveProperty('nameOnCard');
  });

  it("names a PSP transaction's card with its own fields and keeps the others, in the checkpoint's request too", async () => {
    const { intake, cipher } = setup();
    const paymentMethod = { ...(await cipher(A)), scheme: 'visa', issuer: 'Monzo Bank' };
    const payload = { transaction: { transactionId: 't-1' }, paymentMethod };
    const request = { ...payload, checkpoint: 'pspBeforeAuth' };

    await intake.reduce(A, payload, true, request);

    expect(request.paymentMethod).toBe(payload.paymentMethod);
    expect(payload.paymentMethod).toEqual({
      methodType: 'card',
      scheme: 'visa',
      issuer: 'Monzo Bank',
      iin: '41111111',
      lastFour: '1111',
      expiryMonth: 4,
      expiryYear: 2029,
      nameOnCard: 'A LOVELACE',
      instrumentId: expect.stringMatching(/^card_/),
    });
  });

  it("opens connect's card and leaves it without a methodType", async () => {
    const { intake, cipher } = setup();
    const payload = { customerId: 'cus-1', paymentMethods: [{ card: { ...(await cipher(A)), paymentMethodId: 'pm-2', active: true } }] };

    await intake.reduce(A, payload, false);

    expect(payload.paymentMethods[0]?.card).toEqual({ paymentMethodId: 'pm-2', active: true, cardBin: '41111111', cardLastFour: '1111', expiryMonth: 4, expiryYear: 2029, nameOnCard: 'A LOVELACE', instrumentId: expect.stringMatching(/^card_/) });
  });

  it('refuses a number that fails the Luhn check, naming the field and not the number', async () => {
    const { intake, cipher } = setup();
    const payload = { paymentMethods: [await cipher(A, { ...CARD, pan: '4111111111111112' })] };

    const message = await refusal(intake.reduce(A, payload, false));

    expect(message).toBe('paymentMethods.0.cardCiphertext: pan fails the Luhn check');
    expect(message).not.toContain('4111');
  });

  it('refuses a ciphertext altered in transit, and a card whose fields are wrong', async () => {
    const { intake, cipher } = setup();
    const altered = await cipher(A);
    const bytes = Buffer.from(altered.cardCiphertext, 'base64');
    bytes[0] = (bytes[0] ?? 0) ^ 1;
    const payload = { paymentMethods: [{ ...altered, cardCiphertext: bytes.toString('base64') }, await cipher(A, { pan: VISA, month: 13, year: 2029 })] };

    const message = await refusal(intake.reduce(A, payload, false));

    expect(message).toBe(
      'paymentMethods.0.cardCiphertext: does not decrypt (AES-256-GCM: the key, IV or tag does not match); paymentMethods.1.cardCiphertext: month must be an integer from 1 to 12',
    );
  });

  it("refuses account A's cipher sent with account B's key (tenant isolation), and a key index the data set does not have", async () => {
    const { intake, cipher, keys } = setup();
    await keys.currentPublicKey(B.accountId, B.environment);

    const fromA = await refusal(intake.reduce(B, { paymentMethod: await cipher(A) }, false));
    const unknownIndex = await refusal(intake.reduce(A, { paymentMethod: { ...(await cipher(A)), keyIndex: 9 } }, false));
    const otherDataSet = await refusal(intake.reduce({ ...A, environment: 'live' }, { paymentMethod: await cipher(A) }, false));

    expect(fromA).toBe("paymentMethod.aesKeyCiphertext: does not decrypt with this data set's public key keyIndex (RSA-OAEP, SHA-256)");
    expect(unknownIndex).toMatch(/^paymentMethod\.keyIndex: names no encryption key of this data set/);
    expect(otherDataSet).toMatch(/^paymentMethod\.keyIndex: names no encryption key/);
  });

  it('still opens a cipher made under a key rotated away, and gives the new key to the SDKs', async () => {
    const { intake, cipher, keys } = setup();
    const underKeyOne = await cipher(A);

    const rotated = await keys.rotate(A.accountId, A.environment);
    const underKeyTwo = await cipher(A);
    expect([rotated.keyIndex, underKeyTwo.keyIndex]).toEqual([2, 2]);
    const payload = { paymentMethods: [underKeyOne, underKeyTwo] };
    await intake.reduce(A, payload, false);

    expect(payload.paymentMethods.map((method) => method.methodType)).toEqual(['card', 'card']);
    expect(await keys.list(A.accountId, A.environment)).toEqual([
      expect.objectContaining({ keyIndex: 1, current: false }),
      expect.objectContaining({ keyIndex: 2, current: true }),
    ]);
  });

  it('refuses a cipher where no payment method goes, and a cipher without its fields, listing each', async () => {
    const { intake, cipher } = setup();
    const misplaced = { customer: { customerId: 'cus-1', ...(await cipher(A)) } };
    const incomplete = { transaction: { transactionId: 't-1' }, paymentMethod: { methodType: 'paymentMethodCipher' } };

    expect(await refusal(intake.reduce(A, misplaced, false))).toBe('customer.cardCiphertext: a card cipher is accepted only as a payment method');
    expect(await refusal(intake.reduce(A, incomplete, true))).toBe(
      'paymentMethod.cardCiphertext: is required with methodType paymentMethodCipher; paymentMethod.aesKeyCiphertext: is required with methodType paymentMethodCipher; paymentMethod.keyIndex: is required with methodType paymentMethodCipher; paymentMethod.algorithm: is required with methodType paymentMethodCipher',
    );
  });

  it('leaves a payload without ciphers as it is, making no key', async () => {
    const { intake, repository } = setup();
    const payload = { paymentMethod: { methodType: 'card', cardBin: '411111' } };

    await intake.reduce(A, payload, false);

    expect(payload).toEqual({ paymentMethod: { methodType: 'card', cardBin: '411111' } });
    expect(repository.pairs).toEqual([]);
  });
});
