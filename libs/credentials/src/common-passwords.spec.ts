import { dictionary } from '@zxcvbn-ts/language-common';
import { CommonPasswords, MIN_COMMON_PASSWORDS } from './common-passwords';
import { sha256Hex } from './password-hash';

describe(CommonPasswords.name, () => {
  const common = CommonPasswords.fromZxcvbnList();

  it('holds every password of the zxcvbn-ts common list, at least the top 10,000', () => {
    expect(common.size).toBeGreaterThanOrEqual(MIN_COMMON_PASSWORDS);
    expect(common.size).toBe(new Set(dictionary['passwords-common']).size);
  });

  it.each(['1234', 'password', 'qwerty', '123456'])('knows the SHA-256 of %j', (password) => {
    expect(common.has(sha256Hex(password))).toBe(true);
  });

  it('reports the SHA-256 of "1234" as the well-known digest', () => {
    expect(common.has('03ac674216f3e15c761ee1a5e255f067953623c8b388b4459e13f978d7c846f4')).toBe(true);
  });

  it('does not know a password that is not on the list', () => {
    expect(common.has(sha256Hex('correct horse battery staple 9f2c1e'))).toBe(false);
  });

  it('compares hashes, not passwords', () => {
    expect(common.has('1234')).toBe(false);
  });
});
