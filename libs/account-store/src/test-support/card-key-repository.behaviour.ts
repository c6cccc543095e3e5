import type { AccountRepository, CardKeyPairRecord, CardKeyRepository } from '@ringfence/accounts';
import { buildAccount } from '@ringfence/persistence/testing';

interface Repositories {
  accounts: AccountRepository;
  cardKeys: CardKeyRepository;
}

function pair(accountId: string, keyIndex: number, overrides: Partial<CardKeyPairRecord> = {}): CardKeyPairRecord {
  return {
    accountId,
    environment: 'test',
    keyIndex,
    publicKey: `public-${keyIndex}`,
    privateKey: `-----BEGIN PRIVATE KEY-----\nprivate-${keyIndex}\n-----END PRIVATE KEY-----\n`,
    createdAt: new Date(`2030-01-0${keyIndex}T00:00:00.000Z`),
    ...overrides,
  };
}

/** What any CardKeyRepository adapter must do; run against each database by its spec files. */
export function itBehavesLikeACardKeyRepository(repositories: () => Repositories): void {
  const insertAccount = async (): Promise<string> => {
    const account = buildAccount();
    await repositories().accounts.insert(account);
    return account.id;
  };

  it("lists a data set's key pairs oldest first, and only that data set's", async () => {
    const accountId = await insertAccount();
    const other = await insertAccount();
    await repositories().cardKeys.insertKeyPair(pair(accountId, 2));
    await repositories().cardKeys.insertKeyPair(pair(accountId, 1));
    await repositories().cardKeys.insertKeyPair(pair(accountId, 1, { environment: 'live' }));
    await repositories().cardKeys.insertKeyPair(pair(other, 1));

    await expect(repositories().cardKeys.listKeyPairs(accountId, 'test')).resolves.toEqual([pair(accountId, 1), pair(accountId, 2)]);
    await expect(repositories().cardKeys.listKeyPairs(accountId, 'live')).resolves.toEqual([pair(accountId, 1, { environment: 'live' })]);
  });

  it('stores nothing and answers false for a key index already taken', async () => {
    const accountId = await insertAccount();
    await expect(repositories().cardKeys.insertKeyPair(pair(accountId, 1))).resolves.toBe(true);

    await expect(repositories().cardKeys.insertKeyPair(pair(accountId, 1, { publicKey: 'another' }))).resolves.toBe(false);
    await expect(repositories().cardKeys.listKeyPairs(accountId, 'test')).resolves.toEqual([pair(accountId, 1)]);
  });

  it('keeps the first instrument secret of a data set for good, one per data set', async () => {
    const accountId = await insertAccount();

    await expect(repositories().cardKeys.instrumentSecret(accountId, 'test', 'first')).resolves.toBe('first');
    await expect(repositories().cardKeys.instrumentSecret(accountId, 'test', 'second')).resolves.toBe('first');
    await expect(repositories().cardKeys.instrumentSecret(accountId, 'live', 'third')).resolves.toBe('third');
  });
}
