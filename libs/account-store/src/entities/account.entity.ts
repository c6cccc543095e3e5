import type { Account } from '@ringfence/accounts';
import { EntitySchema } from 'typeorm';

/** `accounts`: the tenant registry. Rows map one to one onto the domain's `Account`. */
export const AccountEntity = new EntitySchema<Account>({
  name: 'account',
  tableName: 'accounts',
  columns: {
    id: { type: 'text', primary: true, primaryKeyConstraintName: 'pk_accounts' },
    name: { type: 'text' },
    industry: { type: 'text', nullable: true },
    settings: { type: 'jsonb', default: () => "'{}'" },
    createdAt: { name: 'created_at', type: 'timestamptz', default: () => 'now()' },
  },
  uniques: [{ name: 'uq_accounts_name', columns: ['name'] }],
});
