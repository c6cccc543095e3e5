import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Card encryption (ADR-0015): each data set's RSA key pairs (`card_key_pairs`, the highest
 * `key_index` current, older ones kept to decrypt) and the key of its card numbers' keyed hash
 * (`card_instrument_secrets`). The gateway's own tables, beside `accounts`.
 */
export class CardKeyPairs1766036000000 implements MigrationInterface {
  readonly name = 'CardKeyPairs1766036000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE card_key_pairs (
        account_id text NOT NULL,
        environment text NOT NULL,
        key_index integer NOT NULL,
        public_key text NOT NULL,
        private_key text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_card_key_pairs PRIMARY KEY (account_id, environment, key_index),
        CONSTRAINT chk_card_key_pairs_environment CHECK (environment IN ('test', 'live')),
        CONSTRAINT chk_card_key_pairs_key_index CHECK (key_index >= 1)
      )`);
    await queryRunner.query(`
      CREATE TABLE card_instrument_secrets (
        account_id text NOT NULL,
        environment text NOT NULL,
        secret text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_card_instrument_secrets PRIMARY KEY (account_id, environment),
        CONSTRAINT chk_card_instrument_secrets_environment CHECK (environment IN ('test', 'live'))
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE card_instrument_secrets`);
    await queryRunner.query(`DROP TABLE card_key_pairs`);
  }
}
