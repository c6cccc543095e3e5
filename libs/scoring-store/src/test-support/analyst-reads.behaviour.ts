import type { DataSource } from 'typeorm';
import { TypeOrmDecisionRecordRepository } from '../typeorm/typeorm-decision-record.repository';
import { TypeOrmLatestDecisions } from '../evidence/typeorm-latest-decisions.store';
import { TypeOrmDecisionSearchKeys } from '../search/typeorm-decision-search-keys.store';
import type { DecisionSearchKeyRow } from '../search/decision-search-keys.store';
import { buildRuleTenant } from './rule-repository.behaviour';

function keyRow(tenant: { accountId: string; environment: string }, overrides: Partial<DecisionSearchKeyRow> = {}): DecisionSearchKeyRow {
  return { ...tenant, keyKind: 'ip', keyValue: '203.0.113.7', subjectKind: 'customer', subjectId: 'ada', ...overrides };
}

/** What the search keys and latest decisions must do on each database; run by their spec files. */
export function itServesTheAnalystsReads(dataSource: () => DataSource): void {
  describe(TypeOrmDecisionSearchKeys.name, () => {
    it('finds the subjects of a value once each, only for its tenant and kind, up to the limit', async () => {
      const keys = new TypeOrmDecisionSearchKeys(dataSource());
      const tenant = buildRuleTenant();
      await keys.addAll([keyRow(tenant), keyRow(tenant), keyRow(tenant, { subjectId: 'eve' }), keyRow(tenant, { subjectKind: 'supplier', subjectId: 'acme' })]);
      await keys.addAll([keyRow(tenant)]);

      await expect(keys.subjects(tenant, 'ip', '203.0.113.7', 10)).resolves.toEqual([
        { subjectKind: 'customer', subjectId: 'ada' },
        { subjectKind: 'customer', subjectId: 'eve' },
        { subjectKind: 'supplier', subjectId: 'acme' },
      ]);
      await expect(keys.subjects(tenant, 'ip', '203.0.113.7', 1)).resolves.toHaveLength(1);
      await expect(keys.subjects(tenant, 'card', '203.0.113.7', 10)).resolves.toEqual([]);
      await expect(keys.subjects(buildRuleTenant(), 'ip', '203.0.113.7', 10)).resolves.toEqual([]);
      await expect(keys.subjects({ ...tenant, environment: 'live' }, 'ip', '203.0.113.7', 10)).resolves.toEqual([]);
    });

    it('answers the card of each instrument asked, in order, null for one no decision saw', async () => {
      const keys = new TypeOrmDecisionSearchKeys(dataSource());
      const tenant = buildRuleTenant();
      await keys.addAll([keyRow(tenant, { keyKind: 'instrument', keyValue: 'ins-1', subjectKind: 'card', subjectId: '411111…1111' })]);

      await expect(keys.cardsOfInstruments(tenant, ['ins-2', 'ins-1'])).resolves.toEqual([null, '411111…1111']);
      await expect(keys.cardsOfInstruments(buildRuleTenant(), ['ins-1'])).resolves.toEqual([null]);
      await expect(keys.cardsOfInstruments(tenant, [])).resolves.toEqual([]);
    });
  });

  describe(TypeOrmLatestDecisions.name, () => {
    it("answers each customer's latest decision by payload time, null for one without any", async () => {
      const records = new TypeOrmDecisionRecordRepository(dataSource());
      const tenant = buildRuleTenant();
      const record = (scoreId: string, subjectId: string, timestamp: number, score: number) => ({
        ...tenant,
        scoreId,
        checkpoint: 'customer',
        timestamp,
        event: { scoreId, recommendation: { score } },
        decidedAt: timestamp,
        subjectKind: 'customer' as const,
        subjectId,
        action: 'ALLOW',
      });
      await records.addAll([record('scr_1', 'ada', 1_000, 10), record('scr_2', 'ada', 3_000, 30), record('scr_3', 'ada', 2_000, 20), record('scr_4', 'eve', 1_000, 90)]);

      const events = await new TypeOrmLatestDecisions(dataSource()).latestEvents(tenant, ['eve', 'nobody', 'ada']);

      expect(events.map((event) => event?.scoreId ?? null)).toEqual(['scr_4', null, 'scr_2']);
      await expect(new TypeOrmLatestDecisions(dataSource()).latestEvents(buildRuleTenant(), ['ada'])).resolves.toEqual([null]);
    });
  });
}
