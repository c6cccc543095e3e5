import type { CardKeyPairRecord } from '@ringfence/accounts';
import { EntitySchema } from 'typeorm';

/**
 * `card_key_pairs`: each data set's RSA key pairs for card encryption (ADR-0015). No key to
 * `accounts`: only the gateway writes it, for an authenticated account, and accounts are never deleted.
 */
export const CardKeyPairEntity = new EntitySchema<CardKeyPairRecord>({
  name: 'card_key_pair',
  tableName: 'card_key_pairs',
  columns: {
    accountId: { name: 'account_id', type: 'text', primary: true, primaryKeyConstraintName: 'pk_card_key_pairs' },
    environment: { type: 'text', primary: true, primaryKeyConstraintName: 'pk_card_key_pairs' },
    keyIndex: { name: 'key_index', type: 'integer', primary: true, primaryKeyConstraintName: 'pk_card_key_pairs' },
    publicKey: { name: 'public_key', type: 'text' },
    privateKey: { name: 'private_key', type: 'text' },
    createdAt: { name: 'created_at', type: 'timestamptz', default: () => 'now()' },
  },
  checks: [
    { name: 'chk_card_key_pairs_environment', expression: `environment IN ('test', 'live')` },
    { name: 'chk_card_key_pairs_key_index', expression: `key_index >= 1` },
  ],
});

/** A row of `card_instrument_secrets`: the key of a data set's keyed hash of card numbers. */
export interface CardInstrumentSecretRow {
  accountId: string;
  environment: string;
  secret: string;
  createdAt: Date;
}

/** `card_instrument_secrets`: one per account and data set, never changed once stored. */
export const CardInstrumentSecretEntity = new EntitySchema<CardInstrumentSecretRow>({
  name: 'card_instrument_secret',
  tableName: 'card_instrument_secrets',
  columns: {
    accountId: { name: 'account_id', type: 'text', primary: true, primaryKeyConstraintName: 'pk_card_instrument_secrets' },
    environment: { type: 'text', primary: true, primaryKeyConstraintName: 'pk_card_instrument_secrets' },
    secret: { type: 'text' },
    createdAt: { name: 'created_at', type: 'timestamptz', default: () => 'now()' },
  },
  checks: [{ name: 'chk_card_instrument_secrets_environment', expression: `environment IN ('test', 'live')` }],
});
