import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The search keys of decisions (`GET /v2/search`, ADR-0014): per tenant, each IP address and
 * card (`BIN…last4`) a decision's payload carried, and the subject decided about (and, for a card
 * with an instrument id, the row instrument → card, subject kind `card`, which networks read). The primary
 * key, led by the value, is the index of the search: one lookup, no scan, and a subject is kept
 * once per value however many of its decisions carried it. Decisions recorded before this table
 * existed have no keys (their events are not read again).
 */
export class DecisionSearchKeys1766120370000 implements MigrationInterface {
  readonly name = 'DecisionSearchKeys1766120370000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE decision_search_keys (
        account_id text NOT NULL,
        environment text NOT NULL,
        key_kind text NOT NULL,
        key_value text NOT NULL,
        subject_kind text NOT NULL,
        subject_id text NOT NULL,
        CONSTRAINT pk_decision_search_keys PRIMARY KEY (account_id, environment, key_kind, key_value, subject_kind, subject_id),
        CONSTRAINT chk_decision_search_keys_environment CHECK (environment IN ('test', 'live'))
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE decision_search_keys');
  }
}
