import { PASSWORD_MAX_LENGTH, SCRYPT_PARAMETERS, assertPasswordPolicy, hashPassword, passwordPolicyProblem, verifyPassword } from './password-hashing';

describe('password hashing', () => {
  it('stores scrypt with its parameters and a random salt, never the password', async () => {
    const first = await hashPassword('correct horse battery');
    const second = await hashPassword('correct horse battery');

    expect(first).toMatch(new RegExp(`^scrypt\\$${SCRYPT_PARAMETERS.N}\\$8\\$1\\$[A-Za-z0-9_-]{22}\\$[A-Za-z0-9_-]{43}$`));
    expect(first).not.toContain('correct');
    expect(second).not.toBe(first);
  });

  it('verifies the right password and refuses a wrong one', async () => {
    const stored = await hashPassword('correct horse battery');

    await expect(verifyPassword('correct horse battery', stored)).resolves.toBe(true);
    await expect(verifyPassword('correct horse batterY', stored)).resolves.toBe(false);
  });

  it('verifies a hash made with other parameters by the parameters stored with it', async () => {
    const stored = await hashPassword('an older password', { N: 2 ** 10, r: 8, p: 1 });

    expect(stored.startsWith('scrypt$1024$8$1$')).toBe(true);
    await expect(verifyPassword('an older password', stored)).resolves.toBe(true);
  });

  it('refuses malformed or out-of-bounds stored hashes rather than obeying them', async () => {
    const stored = await hashPassword('correct horse battery');
    const tampered = stored.replace(/^scrypt\$\d+/, 'scrypt$1073741824');

    await expect(verifyPassword('correct horse battery', tampered)).resolves.toBe(false);
    await expect(verifyPassword('correct horse battery', 'sha256$abc')).resolves.toBe(false);
  });

  it('does not block the event loop while hashing', async () => {
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 1);
    await Promise.all([hashPassword('correct horse battery'), hashPassword('correct horse battery')]);
    clearInterval(timer);

    expect(ticks).toBeGreaterThan(0);
  });
});

describe('password policy', () => {
  it('takes 12 to 256 characters, counted as characters, not bytes', () => {
    expect(passwordPolicyProblem('a'.repeat(11))).toBe('password: must be at least 12 characters');
    expect(passwordPolicyProblem('a'.repeat(12))).toBeNull();
    expect(passwordPolicyProblem('é'.repeat(12))).toBeNull();
    expect(passwordPolicyProblem('a'.repeat(PASSWORD_MAX_LENGTH))).toBeNull();
    expect(passwordPolicyProblem('a'.repeat(PASSWORD_MAX_LENGTH + 1))).toBe('password: must be at most 256 characters');
  });

  it('throws a 400 naming the field', () => {
    expect(() => assertPasswordPolicy('short')).toThrow(expect.objectContaining({ status: 400, message: expect.stringMatching(/^password:/) }));
  });
});
