import type { BreachedCredentialsRepository } from './breached-credentials.repository';
import { CommonPasswords } from './common-passwords';
import { CredentialsCheck } from './credentials-check';
import { sha256Hex } from './password-hash';

const breachedHash = sha256Hex('hunter2-but-longer');
const otherBreachedHash = sha256Hex('another leaked one');

function repositoryWith(pairs: Record<string, string[]>): jest.Mocked<BreachedCredentialsRepository> {
  return {
    // The store answers the first 16 hex characters of each breached hash.
    passwordPrefixesOf: jest.fn(async (username: string) => (pairs[username] ?? []).map((hash) => hash.slice(0, 16))),
    insert: jest.fn(),
    reload: jest.fn(),
  } as jest.Mocked<BreachedCredentialsRepository>;
}

describe(CredentialsCheck.name, () => {
  const common = new CommonPasswords(['1234', 'password']);

  it('finds a breached username by its normalised form, with its number of passwords', async () => {
    const repository = repositoryWith({ 'ada@example.com': [breachedHash, otherBreachedHash] });

    const status = await new CredentialsCheck(repository, common).check('  Ada@Example.COM ', sha256Hex('something else entirely'));

    expect(status).toEqual({ usernameBreached: true, passwordBreached: false, numBreachedPasswords: 2 });
    expect(repository.passwordPrefixesOf).toHaveBeenCalledWith('ada@example.com');
  });

  it("reports the password breached when it is one of the username's, in either hex case", async () => {
    const check = new CredentialsCheck(repositoryWith({ ada: [breachedHash] }), common);

    await expect(check.check('ada', breachedHash.toUpperCase())).resolves.toEqual({
      usernameBreached: true,
      passwordBreached: true,
      numBreachedPasswords: 1,
    });
  });

  it("does not report another username's breached password", async () => {
    const check = new CredentialsCheck(repositoryWith({ grace: [breachedHash] }), common);

    await expect(check.check('ada', breachedHash)).resolves.toEqual({ usernameBreached: false, passwordBreached: false, numBreachedPasswords: 0 });
  });

  it('reports a common password breached for any username, the SHA-256 of "1234" included', async () => {
    const check = new CredentialsCheck(repositoryWith({}), common);

    await expect(check.check('nobody', sha256Hex('1234'))).resolves.toEqual({
      usernameBreached: false,
      passwordBreached: true,
      numBreachedPasswords: 0,
    });
  });

  it('never hands the checked hash to the store', async () => {
    const repository = repositoryWith({ ada: [breachedHash] });
    const checked = sha256Hex('the password being checked');

    await new CredentialsCheck(repository, common).check('ada', checked);

    expect(JSON.stringify(repository.passwordPrefixesOf.mock.calls)).not.toContain(checked);
  });

  it('answers no field whose name contains "hash"', async () => {
    const status = await new CredentialsCheck(repositoryWith({}), common).check('ada', breachedHash);

    expect(Object.keys(status).filter((key) => key.toLowerCase().includes('hash'))).toEqual([]);
  });
});
