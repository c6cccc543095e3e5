import { EntitySchema } from 'typeorm';

export interface BreachedCredentialRow {
  username: string;
  passwordSha256: string;
  createdAt: Date;
}

/**
 * `breached_credentials`: breached username → password SHA-256 pairs, global (a breach corpus
 * is the same for every account). The primary key makes each pair unique and, leading with the
 * username, is the index the check reads by.
 */
export const BreachedCredentialEntity = new EntitySchema<BreachedCredentialRow>({
  name: 'breached_credential',
  tableName: 'breached_credentials',
  columns: {
    username: { type: 'text', primary: true, primaryKeyConstraintName: 'pk_breached_credentials' },
    passwordSha256: { name: 'password_sha256', type: 'text', primary: true, primaryKeyConstraintName: 'pk_breached_credentials' },
    createdAt: { name: 'created_at', type: 'timestamptz', default: () => 'now()' },
  },
  checks: [{ name: 'chk_breached_credentials_password_sha256', expression: `password_sha256 ~ '^[0-9a-f]{64}$'` }],
});
