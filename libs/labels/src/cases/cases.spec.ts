import type { CaseChanges, CaseRecord, CaseTenant } from './case';
import type { CaseRepository } from './case-repository';
import { Cases } from './cases';

const ANA = { email: 'ana@shop.example', name: 'Ana' };
const BEN = { email: 'ben@shop.example', name: 'Ben' };
const CAM = { email: 'cam@shop.example', name: 'Cam' };
const TENANT: CaseTenant = { accountId: 'acc-1', environment: 'test' };

function aCase(caseId: string, assignee: CaseRecord['assignee']): CaseRecord {
  return {
    caseId,
    subjectType: 'customer',
    subjectId: `cus-${caseId}`,
    status: assignee === null ? 'open' : 'in_review',
    outcome: null,
    assignee,
    checkpoints: ['customer'],
    decisionCount: 1,
    maxScore: 70,
    totalAmount: null,
    openedAt: 1_000,
    lastDecisionAt: 2_000,
    updatedAt: 2_000,
    closedAt: null,
    version: 2,
  };
}

/** The two calls bulk makes (find, a versioned update), over a map. */
function casesIn(records: CaseRecord[]): { repository: CaseRepository; stored: Map<string, CaseRecord> } {
  const stored = new Map(records.map((record) => [record.caseId, record]));
  const repository = {
    find: async (_tenant: CaseTenant, caseId: string) => stored.get(caseId) ?? null,
    update: async (_tenant: CaseTenant, caseId: string, expectedVersion: number, changes: CaseChanges) => {
      const current = stored.get(caseId);
      if (current === undefined || current.version !== expectedVersion) return null;
      const updated = { ...current, ...changes, version: current.version + 1 };
      stored.set(caseId, updated);
      return updated;
    },
  } as Partial<CaseRepository> as CaseRepository;
  return { repository, stored };
}

describe('bulk case actions', () => {
  it('assigns unassigned cases and the actor\'s own, and refuses, per case, one another analyst holds', async () => {
    const { repository, stored } = casesIn([aCase('cas_free', null), aCase('cas_mine', ANA), aCase('cas_bens', BEN)]);
    const { results } = await new Cases(repository, () => 5_000).bulk(TENANT, { actor: ANA, caseIds: ['cas_free', 'cas_mine', 'cas_bens'], action: 'assign', assignee: CAM });

    expect(results).toEqual([
      { caseId: 'cas_free', ok: true },
      { caseId: 'cas_mine', ok: true },
      { caseId: 'cas_bens', ok: false, error: expect.stringContaining(BEN.email) },
    ]);
    expect(stored.get('cas_free')?.assignee).toEqual(CAM);
    expect(stored.get('cas_mine')?.assignee).toEqual(CAM);
    expect(stored.get('cas_bens')).toMatchObject({ assignee: BEN, version: 2 });
  });

  it('refuses to unassign, in bulk, a case another analyst holds', async () => {
    const { repository, stored } = casesIn([aCase('cas_bens', BEN)]);
    const { results } = await new Cases(repository).bulk(TENANT, { actor: ANA, caseIds: ['cas_bens'], action: 'assign', assignee: null });
    expect(results).toEqual([{ caseId: 'cas_bens', ok: false, error: expect.stringContaining(BEN.email) }]);
    expect(stored.get('cas_bens')?.assignee).toEqual(BEN);
  });
});
