import type { Provider } from '@nestjs/common';
import { CommonPasswords } from '@ringfence/credentials';

export const COMMON_PASSWORDS = Symbol('CommonPasswords');

/** Built once when the gateway starts (about 49,000 SHA-256 hashes, tens of milliseconds). */
export const commonPasswordsProvider: Provider = {
  provide: COMMON_PASSWORDS,
  useFactory: () => CommonPasswords.fromZxcvbnList(),
};
