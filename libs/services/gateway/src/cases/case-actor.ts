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

/** A person named by e-mail in a request (an assignment): their name is not known here, so it is the e-mail. */
export function namedByEmail(email: string | null): CaseActorMessage | null {
  return email === null ? null : { email, name: email };
}
