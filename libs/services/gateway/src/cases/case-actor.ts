import { type Principal, actorOf } from '@ringfence/accounts';
import type { CaseActorMessage } from '@ringfence/contracts';

/**
 * Who acts on a case, as the audit trail names them (`actorOf`: the person's e-mail, or
 * `key <keyId>` for an integration), with the person's name where a person signed in.
 */
export function caseActorOf(principal: Principal): CaseActorMessage {
  const email = actorOf(principal);
  return { email, name: principal.user?.name ?? email };
}
