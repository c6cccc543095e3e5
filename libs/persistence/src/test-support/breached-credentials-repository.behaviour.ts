import type { BreachedCredentialsRepository } from '@ringfence/credentials';
import { buildBreachedCredential } from './lookup-test-data.factory';

/** What any BreachedCredentialsRepository adapter must do; run against each database by its spec files. */
export function itBehavesLikeABreachedCredentialsRepository(repository: () => BreachedCredentialsRepository): void {
  it('knows no password of a username never stored', async () => {
    await expect(repository().passwordHashesOf(buildBreachedCredential().username)).resolves.toEqual([]);
  });

  it("stores pairs and answers each username's distinct password hashes", async () => {
    const first = buildBreachedCredential();
    const second = buildBreachedCredential({ username: first.username });
    const other = buildBreachedCredential();

    await expect(repository().insert([first, second, other])).resolves.toBe(3);

    await expect(repository().passwordHashesOf(first.username).then((hashes) => hashes.sort())).resolves.toEqual(
      [first.passwordHash, second.passwordHash].sort(),
    );
    await expect(repository().passwordHashesOf(other.username)).resolves.toEqual([other.passwordHash]);
  });

  it('stores each pair once, counting only the new ones (an import can be re-run)', async () => {
    const stored = buildBreachedCredential();
    await repository().insert([stored]);
    const fresh = buildBreachedCredential({ username: stored.username });

    await expect(repository().insert([stored, fresh, fresh])).resolves.toBe(1);

    await expect(repository().passwordHashesOf(stored.username)).resolves.toHaveLength(2);
  });

  it('keeps the same password of two usernames as two pairs', async () => {
    const first = buildBreachedCredential();
    const second = buildBreachedCredential({ passwordHash: first.passwordHash });

    await expect(repository().insert([first, second])).resolves.toBe(2);
  });

  it('answers 0 for nothing to store', async () => {
    await expect(repository().insert([])).resolves.toBe(0);
  });

  it('stores a batch of 5,000 pairs in one call', async () => {
    const batch = Array.from({ length: 5_000 }, () => buildBreachedCredential());

    await expect(repository().insert(batch)).resolves.toBe(5_000);

    await expect(repository().passwordHashesOf(batch[4_999].username)).resolves.toEqual([batch[4_999].passwordHash]);
  });

  it('refuses a hash that is not lower-case hex SHA-256, without the hash in the error', async () => {
    const malformed = buildBreachedCredential({ passwordHash: 'A'.repeat(64) });

    const failure = await repository().insert([malformed]).then(
      () => null,
      (error: unknown) => error,
    );

    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toContain('chk_breached_credentials_password_sha256');
    expect(JSON.stringify(failure, Object.getOwnPropertyNames(failure))).not.toContain(malformed.passwordHash);
    expect(String((failure as Error).stack)).not.toContain(malformed.passwordHash);
  });
}
