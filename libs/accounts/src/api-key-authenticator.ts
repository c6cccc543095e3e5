import type { Environment } from '@ringfence/contracts';
import { AppError } from '@ringfence/platform';
import type { Account, ApiKeyRepository, KeyKind } from './account';
import { hashApiKey, parseApiKey } from './api-key';

/** Who a request acts for: the tenant and which of its two data sets. */
export interface Principal {
  account: Account;
  environment: Environment;
  keyKind: KeyKind;
  keyId: string;
}

const SCHEME = /^token\s+(\S+)\s*$/i;

/** Turns an `Authorization: token <key>` header into a principal, or throws 401. */
export class ApiKeyAuthenticator {
  constructor(private readonly keys: ApiKeyRepository) {}

  async authenticate(authorizationHeader: string | undefined): Promise<Principal> {
    if (!authorizationHeader) {
      throw new AppError('UNAUTHENTICATED', 'Authorization header missing; send "Authorization: token <API key>"');
    }
    const token = SCHEME.exec(authorizationHeader)?.[1];
    if (!token || !parseApiKey(token)) {
      throw new AppError('UNAUTHENTICATED', 'Authorization header malformed; send "Authorization: token <API key>"');
    }
    const found = await this.keys.findActiveByHash(hashApiKey(token));
    if (!found) {
      throw new AppError('UNAUTHENTICATED', 'API key unknown or revoked');
    }
    return { account: found.account, environment: found.key.environment, keyKind: found.key.kind, keyId: found.key.id };
  }
}
