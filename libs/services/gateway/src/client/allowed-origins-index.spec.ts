import type { Account } from '@ringfence/accounts';
import { InMemoryAccountRepository } from '@ringfence/accounts/testing';
import { AllowedOriginsIndex } from './allowed-origins-index';

const account = (id: string, settings: Account['settings']): Account => ({ id, name: id, industry: null, settings, createdAt: new Date() });

describe(AllowedOriginsIndex.name, () => {
  it("allows an origin that any data set of any account lists, and no other", async () => {
    const accounts = new InMemoryAccountRepository();
    await accounts.insert(account('acc_1', { allowedOrigins: ['https://shop.example'] }));
    await accounts.insert(account('acc_2', { testAllowedOrigins: ['http://127.0.0.1:8080'] }));
    const index = new AllowedOriginsIndex(accounts);

    await expect(index.allowedAnywhere('https://shop.example')).resolves.toBe(true);
    await expect(index.allowedAnywhere('http://127.0.0.1:8080')).resolves.toBe(true);
    await expect(index.allowedAnywhere('https://evil.example')).resolves.toBe(false);
  });

  it('reads the registry once a second, and again at once when told to forget', async () => {
    const accounts = new InMemoryAccountRepository();
    await accounts.insert(account('acc_1', {}));
    const list = jest.spyOn(accounts, 'list');
    const index = new AllowedOriginsIndex(accounts);
    await index.allowedAnywhere('https://shop.example');
    await accounts.updateSettings('acc_1', { allowedOrigins: ['https://shop.example'] });

    await expect(index.allowedAnywhere('https://shop.example')).resolves.toBe(false);
    index.forget();
    await expect(index.allowedAnywhere('https://shop.example')).resolves.toBe(true);
    expect(list).toHaveBeenCalledTimes(2);
  });
});
