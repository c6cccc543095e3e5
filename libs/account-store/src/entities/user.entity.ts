import type { SessionRecord, UserRecord } from '@ringfence/accounts';
import { EntitySchema } from 'typeorm';
import { AccountEntity } from './account.entity';

/** `users`: an account's named people (issue 37); only each password's scrypt hash is stored. */
export const UserEntity = new EntitySchema<UserRecord>({
  name: 'user',
  tableName: 'users',
  columns: {
    id: { type: 'text', primary: true, primaryKeyConstraintName: 'pk_users' },
    accountId: { name: 'account_id', type: 'text' },
    email: { type: 'text' },
    name: { type: 'text' },
    role: { type: 'text' },
    passwordHash: { name: 'password_hash', type: 'text' },
    disabled: { type: 'boolean', default: false },
    createdAt: { name: 'created_at', type: 'timestamptz', default: () => 'now()' },
    createdBy: { name: 'created_by', type: 'text' },
  },
  uniques: [{ name: 'uq_users_email', columns: ['email'] }],
  indices: [{ name: 'idx_users_account_id', columns: ['accountId'] }],
  foreignKeys: [{ name: 'fk_users_account', target: AccountEntity, columnNames: ['accountId'], referencedColumnNames: ['id'] }],
  checks: [
    { name: 'chk_users_role', expression: `role IN ('viewer', 'analyst', 'rule_author', 'admin')` },
    { name: 'chk_users_email_lower', expression: `email = lower(email)` },
  ],
});

/** `user_sessions`: console sessions, stored only as the SHA-256 of their token. */
export const UserSessionEntity = new EntitySchema<SessionRecord>({
  name: 'user_session',
  tableName: 'user_sessions',
  columns: {
    id: { type: 'text', primary: true, primaryKeyConstraintName: 'pk_user_sessions' },
    accountId: { name: 'account_id', type: 'text' },
    userId: { name: 'user_id', type: 'text' },
    environment: { type: 'text' },
    tokenHash: { name: 'token_hash', type: 'text' },
    createdAt: { name: 'created_at', type: 'timestamptz' },
    expiresAt: { name: 'expires_at', type: 'timestamptz' },
    endedAt: { name: 'ended_at', type: 'timestamptz', nullable: true },
  },
  uniques: [{ name: 'uq_user_sessions_token_hash', columns: ['tokenHash'] }],
  indices: [{ name: 'idx_user_sessions_user_id', columns: ['userId'], where: 'ended_at IS NULL' }],
  foreignKeys: [{ name: 'fk_user_sessions_user', target: UserEntity, columnNames: ['userId'], referencedColumnNames: ['id'] }],
  checks: [{ name: 'chk_user_sessions_environment', expression: `environment IN ('test', 'live')` }],
});
