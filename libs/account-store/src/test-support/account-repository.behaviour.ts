import type { AccountRepository } from '@ringfence/accounts';
import { buildAccount } from '@ringfence/persistence/testing';

/** What any AccountRepository adapter must do; run against each database by its spec files. */
export function itBehavesLikeAnAccountRepository(repository: () => AccountRepository): void {
  it('finds an inserted account by id and by name, as it was inserted', async () => {
    const account = buildAccount({ industry: null, settings: { voucherAbuseEnabled: false, potentialLabelsEnabled: true } });

    await repository().insert(account);

    await expect(repository().findById(account.id)).resolves.toEqual(account);
    await expect(repository().findByName(account.name)).resolves.toEqual(account);
  });

  it('keeps empty settings as an empty object', async () => {
    const account = buildAccount({ settings: {} });

    await repository().insert(account);

    await expect(repository().findById(account.id)).resolves.toMatchObject({ settings: {} });
  });

  it('answers null for an unknown id or name', async () => {
    await expect(repository().findById('acc_unknown')).resolves.toBeNull();
    await expect(repository().findByName('no such account')).resolves.toBeNull();
  });

  it('lists accounts oldest first', async () => {
    const newer = buildAccount({ createdAt: new Date('2030-01-02T00:00:00.000Z') });
    const older = buildAccount({ createdAt: new Date('2030-01-01T00:00:00.000Z') });
    await repository().insert(newer);
    await repository().insert(older);

    const listed = await repository().list();

    const ours = listed.filter((account) => account.id === newer.id || account.id === older.id);
    expect(ours).toEqual([older, newer]);
  });

  it('refuses a second account with a name already taken', async () => {
    const first = buildAccount();
    await repository().insert(first);

    await expect(repository().insert(buildAccount({ name: first.name }))).rejects.toThrow(/uq_accounts_name/);
  });

  it('sets the given settings and keeps the others', async () => {
    const account = buildAccount({ settings: { voucherAbuseEnabled: false, defaultAction: 'REVIEW' } });
    await repository().insert(account);

    const updated = await repository().updateSettings(account.id, { potentialLabelsEnabled: true, defaultAction: 'PREVENT' });

    const settings = { voucherAbuseEnabled: false, potentialLabelsEnabled: true, defaultAction: 'PREVENT' };
    expect(updated).toEqual({ ...account, settings });
    await expect(repository().findById(account.id)).resolves.toEqual({ ...account, settings });
  });

  it('keeps both of two concurrent changes of different settings', async () => {
    const account = buildAccount({ settings: {} });
    await repository().insert(account);

    await Promise.all([
      repository().updateSettings(account.id, { potentialLabelsEnabled: true }),
      repository().updateSettings(account.id, { voucherAbuseEnabled: false }),
    ]);

    await expect(repository().findById(account.id)).resolves.toMatchObject({ settings: { potentialLabelsEnabled: true, voucherAbuseEnabled: false } });
  });

  it('answers null for the settings of an unknown account', async () => {
    await expect(repository().updateSettings('acc_unknown', { potentialLabelsEnabled: true })).resolves.toBeNull();
  });

  it('does not change the account object it was given', async () => {
    const account = buildAccount();
    const before = structuredClone(account);

    await repository().insert(account);

    expect(account).toEqual(before);
  });
}
