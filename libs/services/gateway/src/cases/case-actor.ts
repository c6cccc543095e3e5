import { type Principal, actorOf, normalisedEmail } from '@ringfence/accounts';
import type { CaseActorMessage, ListCasesRequest } from '@ringfence/contracts';

/**
 * Who acts on a case, as the audit trail names them (`actorOf`: the person's e-mail, or
 * `key <keyId>` for an integration), with the person's name where a person signed in.
 */
export function caseActorOf(principal: Principal): CaseActorMessage {
  const email = actorOf(principal);
  return { email, name: principal.user?.name ?? email };
}

/** An integration's actor name, `key <keyId>`, kept as written: key ids are not e-mails. */
const KEY_ACTOR = /^key /;

/**
 * The list's `assignee` filter: `me`, the cases I hold; `none`, nobody's; else the person named,
 * by their e-mail lower-cased as people's e-mails are stored (`normalisedEmail`), or a key's actor.
 */
export function assigneeFilter(principal: Principal, assignee: string | undefined): Pick<ListCasesRequest, 'assignee' | 'unassigned'> {
  if (assignee === undefined) return {};
  if (assignee === 'none') return { unassigned: true };
  if (assignee === 'me') return { assignee: actorOf(principal) };
  return { assignee: KEY_ACTOR.test(assignee) ? assignee : normalisedEmail(assignee) };
}
