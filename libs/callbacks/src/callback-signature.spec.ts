import { createHmac } from 'node:crypto';
import { callbackSignature, verifyCallbackSignature } from './callback-signature';

const SECRET = 'whsec-0123456789abcdef';
const BODY = '{"event":"label.changed","subjectId":"cus-1"}';
const AT = 1_763_800_000_123;

describe(callbackSignature.name, () => {
  it('is sha256= and the hex HMAC-SHA256 of "<timestamp>.<body>" keyed with the secret', () => {
    const expected = createHmac('sha256', SECRET).update(`${AT}.${BODY}`).digest('hex');

    expect(callbackSignature(SECRET, AT, BODY)).toBe(`sha256=${expected}`);
  });

  it('matches a value computed with openssl (a fixed vector)', () => {
    // printf '%s' '1763800000123.{"event":"label.changed","subjectId":"cus-1"}' | openssl dgst -sha256 -hmac whsec-0123456789abcdef
    expect(callbackSignature(SECRET, AT, BODY)).toBe('sha256=fd4966ab0ed6987cb7ee5deb6b8929d8effd03c7a7fca75cad691cd807ec7f0d');
  });

  it('changes with the secret, the timestamp and every byte of the body', () => {
    const signature = callbackSignature(SECRET, AT, BODY);

    expect(callbackSignature(`${SECRET}x`, AT, BODY)).not.toBe(signature);
    expect(callbackSignature(SECRET, AT + 1, BODY)).not.toBe(signature);
    expect(callbackSignature(SECRET, AT, BODY.replace('cus-1', 'cus-2'))).not.toBe(signature);
  });
});

describe(verifyCallbackSignature.name, () => {
  const signed = (overrides: Partial<Parameters<typeof verifyCallbackSignature>[0]> = {}) => ({
    secret: SECRET,
    timestamp: String(AT),
    body: BODY,
    signature: callbackSignature(SECRET, AT, BODY),
    ...overrides,
  });

  it('accepts what callbackSignature signed, within the tolerance', () => {
    expect(verifyCallbackSignature(signed(), AT + 60_000)).toBe(true);
  });

  it('refuses another secret, a changed body, a changed timestamp or a malformed signature', () => {
    expect(verifyCallbackSignature(signed({ secret: 'another-secret-0123' }), AT)).toBe(false);
    expect(verifyCallbackSignature(signed({ body: `${BODY} ` }), AT)).toBe(false);
    expect(verifyCallbackSignature(signed({ timestamp: String(AT + 1) }), AT)).toBe(false);
    expect(verifyCallbackSignature(signed({ signature: 'sha256=00' }), AT)).toBe(false);
    expect(verifyCallbackSignature(signed({ timestamp: '1e12' }), AT)).toBe(false);
  });

  it('refuses a timestamp older or newer than the tolerance (a replay)', () => {
    expect(verifyCallbackSignature(signed(), AT + 5 * 60_000 + 1)).toBe(false);
    expect(verifyCallbackSignature(signed(), AT - 5 * 60_000 - 1)).toBe(false);
  });
});
