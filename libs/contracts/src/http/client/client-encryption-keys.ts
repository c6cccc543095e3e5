import type { Environment } from '../../messages/message-envelope';
import type { ClientEncryptionKeyDto } from './client.response.dto';

/**
 * The current public key of a data set's card-encryption key pairs, as `GET
 * /v2/client/encryption-key` answers it. The gateway's client route depends on this port only;
 * the service that makes, rotates and keeps the key pairs provides it under
 * `CLIENT_ENCRYPTION_KEYS`. Without a provider the route answers 503.
 */
export interface ClientEncryptionKeys {
  currentPublicKey(accountId: string, environment: Environment): Promise<ClientEncryptionKeyDto>;
}

/** The Nest token of the `ClientEncryptionKeys` provider. */
export const CLIENT_ENCRYPTION_KEYS = Symbol('ClientEncryptionKeys');
