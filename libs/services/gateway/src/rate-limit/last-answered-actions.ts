import type { Principal } from '@ringfence/accounts';
import type { Action } from '@ringfence/contracts';
import { LRUCache } from 'lru-cache';

/** Subjects remembered per data set; past it, that data set's least recently answered are forgotten. */
export const LAST_ANSWERED_SUBJECTS_PER_DATA_SET = 10_000;

type StrictAction = Exclude<Action, 'ALLOW'>;

/**
 * The action each customer (or supplier) was last answered from a score, for the answer of a
 * rate-limited checkpoint (ADR-0001: never weaker than it). Kept in this gateway process, in
 * memory, which every checkpoint passes through, so reading it costs no statement:
 *
 * - Only REVIEW and PREVENT are held; an ALLOW removes the subject. A subject not held counts as
 *   ALLOW, so forgetting one can only turn a PREVENT into the REVIEW every limited answer is at
 *   least: the memory stays small (most answers are ALLOW) and never fails open.
 * - Each data set (account and environment) has its own bounded map, so one account's subjects
 *   never push out another's (ADR-0016, tenants share fairly).
 * - With several gateway replicas each holds what it answered, and after a restart nothing is
 *   held: a limited checkpoint then answers REVIEW, still never ALLOW.
 */
export class LastAnsweredActions {
  private readonly byDataSet = new Map<string, LRUCache<string, StrictAction>>();

  constructor(private readonly subjectsPerDataSet = LAST_ANSWERED_SUBJECTS_PER_DATA_SET) {}

  record(principal: Principal, subjectId: string, action: Action): void {
    const dataSet = dataSetKey(principal);
    if (action === 'ALLOW') {
      this.byDataSet.get(dataSet)?.delete(subjectId);
      return;
    }
    let actions = this.byDataSet.get(dataSet);
    if (actions === undefined) {
      actions = new LRUCache<string, StrictAction>({ max: this.subjectsPerDataSet });
      this.byDataSet.set(dataSet, actions);
    }
    actions.set(subjectId, action);
  }

  lastAction(principal: Principal, subjectId: string): Action {
    return this.byDataSet.get(dataSetKey(principal))?.get(subjectId) ?? 'ALLOW';
  }
}

const dataSetKey = (principal: Principal) => `${principal.account.id}:${principal.environment}`;
