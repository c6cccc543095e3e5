import type { Account, Principal } from '@ringfence/accounts';
import { type AccountFacts, type MessageEnvelope, accountFactsOf } from '@ringfence/contracts';
import { newEventId } from '@ringfence/platform';

/**
 * Made once per account object: the account caches hand out the same object until the account
 * changes, and then a new one (an account is never written to in place).
 */
const factsOfAccount = new WeakMap<Account, AccountFacts>();

/**
 * What every request the gateway sends tells the service it asks about the principal's account
 * (`AccountFacts`): the gateway owns the account registry, the services apply its settings.
 */
export function principalAccountFacts(principal: Principal): AccountFacts {
  let facts = factsOfAccount.get(principal.account);
  if (facts === undefined) {
    facts = accountFactsOf(principal.account);
    factsOfAccount.set(principal.account, facts);
  }
  return facts;
}

/** A request for the principal's account and data set, keyed on the bus by `subjectId`. */
export function principalRequest<T>(principal: Principal, traceId: string, subjectId: string, payload: T): MessageEnvelope<T> {
  return {
    eventId: newEventId(),
    accountId: principal.account.id,
    environment: principal.environment,
    subjectId,
    acceptedAt: Date.now(),
    traceId,
    account: principalAccountFacts(principal),
    payload,
  };
}
