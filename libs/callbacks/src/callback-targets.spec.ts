import { verifyCallbackSignature } from './callback-signature';
import { SettingsCallbackTargets } from './callback-targets';

const TENANT = { accountId: 'acc_1', environment: 'test' as const };
const SECRET = 'a-callback-secret-of-some-length';

describe(SettingsCallbackTargets.name, () => {
  it('answers the URL and a signature the secret verifies', async () => {
    const targets = new SettingsCallbackTargets(async () => ({ callbackUrl: 'https://receiver.example/hook', callbackSecret: SECRET }));

    const signed = await targets.sign(TENANT, 1_700_000_000_000, '{"event":"label.changed"}');

    expect(signed.callbackUrl).toBe('https://receiver.example/hook');
    expect(verifyCallbackSignature({ secret: SECRET, timestamp: '1700000000000', body: '{"event":"label.changed"}', signature: signed.signature ?? '' }, 1_700_000_000_000)).toBe(true);
    await expect(targets.urlOf(TENANT)).resolves.toBe('https://receiver.example/hook');
  });

  it('answers no signature without a secret, and neither URL nor signature for an unknown account', async () => {
    await expect(new SettingsCallbackTargets(async () => ({ callbackUrl: 'https://receiver.example/hook', callbackSecret: null })).sign(TENANT, 1, '{}')).resolves.toEqual({
      callbackUrl: 'https://receiver.example/hook',
      signature: null,
    });
    await expect(new SettingsCallbackTargets(async () => null).sign(TENANT, 1, '{}')).resolves.toEqual({ callbackUrl: null, signature: null });
    await expect(new SettingsCallbackTargets(async () => null).urlOf(TENANT)).resolves.toBeNull();
  });
});
