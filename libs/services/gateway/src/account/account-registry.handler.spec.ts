import type { Account, AccountRepository } from '@ringfence/accounts';
import { verifyCallbackSignature } from '@ringfence/callbacks';
import type { CallbackTargetRequest, MessageEnvelope } from '@ringfence/contracts';
import { AccountRegistryHandler } from './account-registry.handler';

const SECRET = 'a-callback-secret-0123';
const TEST_SECRET = 'a-sandbox-secret-0123';
const account: Account = {
  id: 'acc_1',
  name: 'acme',
  industry: 'travel',
  settings: { potentialLabelsEnabled: true, callbackUrl: 'https://hooks.acme.example/', callbackSecret: SECRET, testCallbackUrl: 'https://staging.acme.example/', testCallbackSecret: TEST_SECRET },
  createdAt: new Date(0),
};
const accounts = { findById: async (accountId: string) => (accountId === account.id ? account : null) } as AccountRepository;

function envelope<T>(payload: T, accountId = account.id, environment: 'live' | 'test' = 'live'): MessageEnvelope<T> {
  return { eventId: 'evt-1', accountId, environment, subjectId: accountId, acceptedAt: 1, traceId: 'trace-1', payload };
}

describe(AccountRegistryHandler.name, () => {
  const handler = new AccountRegistryHandler(accounts);

  it("answers an account's facts without its callback secrets, and null for an unknown account", async () => {
    await expect(handler.readAccountFacts(envelope({}))).resolves.toEqual({
      account: { industry: 'travel', settings: { potentialLabelsEnabled: true, callbackUrl: 'https://hooks.acme.example/', testCallbackUrl: 'https://staging.acme.example/' } },
    });
    await expect(handler.readAccountFacts(envelope({}, 'acc_unknown'))).resolves.toEqual({ account: null });
  });

  it('answers the callback URL alone, or with a signature the secret verifies, and never the secret', async () => {
    const url = await handler.answerCallbackTarget(envelope<CallbackTargetRequest>({}));
    const signed = await handler.answerCallbackTarget(envelope<CallbackTargetRequest>({ signing: { timestamp: 1_700_000_000_000, body: '{"a":1}' } }));

    expect(url).toEqual({ callbackUrl: 'https://hooks.acme.example/', signature: null });
    expect(signed.callbackUrl).toBe('https://hooks.acme.example/');
    expect(verifyCallbackSignature({ secret: SECRET, timestamp: '1700000000000', body: '{"a":1}', signature: signed.signature ?? '' }, 1_700_000_000_000)).toBe(true);
    expect(JSON.stringify([url, signed])).not.toContain(SECRET);
  });

  it("answers a sandbox delivery with the sandbox's URL and signature, never the live receiver's", async () => {
    const body = '{"environment":"test"}';
    const signed = await handler.answerCallbackTarget(envelope<CallbackTargetRequest>({ signing: { timestamp: 1_700_000_000_000, body } }, account.id, 'test'));

    expect(signed.callbackUrl).toBe('https://staging.acme.example/');
    expect(verifyCallbackSignature({ secret: TEST_SECRET, timestamp: '1700000000000', body, signature: signed.signature ?? '' }, 1_700_000_000_000)).toBe(true);
    expect(verifyCallbackSignature({ secret: SECRET, timestamp: '1700000000000', body, signature: signed.signature ?? '' }, 1_700_000_000_000)).toBe(false);
  });
});
