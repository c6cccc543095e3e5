import type { ApiKeyRecord } from '@ringfence/accounts';
import { EntitySchema } from 'typeorm';
import { AccountEntity } from './account.entity';

/** `api_keys`: only the SHA-256 of each key is stored, never the key. */
export const ApiKeyEntity = new EntitySchema<ApiKeyRecord>({
  name: 'api_key',
  tableName: 'api_keys',
  columns: {
    id: { type: 'text', primary: true, primaryKeyConstraintName: 'pk_api_keys' },
    accountId: { name: 'account_id', type: 'text' },
    kind: { type: 'text' },
    environment: { type: 'text' },
    keyHash: { name: 'key_hash', type: 'text' },
    displayPrefix: { name: 'display_prefix', type: 'text' },
    createdAt: { name: 'created_at', type: 'timestamptz', default: () => 'now()' },
    revokedAt: { name: 'revoked_at', type: 'timestamptz', nullable: true },
  },
  uniques: [{ name: 'uq_api_keys_key_hash', columns: ['keyHash'] }],
  indices: [{ name: 'idx_api_keys_account_id', columns: ['accountId'] }],
  foreignKeys: [
    {
      name: 'fk_api_keys_account',
      target: AccountEntity,
      columnNames: ['accountId'],
      referencedColumnNames: ['id'],
    },
  ],
  checks: [
    { name: 'chk_api_keys_kind', expression: `kind IN ('secret', 'publishable')` },
    { name: 'chk_api_keys_environment', expression: `environment IN ('test', 'live')` },
  ],
});
