import type { AccountFacts, MessageEnvelope } from '@ringfence/contracts';
import { AppError } from '@ringfence/platform';

/**
 * The account facts a request carries (the gateway sets them on every request it sends, and a
 * service passes them on when it asks another for the same request). A request without them
 * was not sent by a gateway of this version: it fails rather than be decided with defaults that
 * may not be the account's.
 */
export function requestAccount(message: MessageEnvelope<unknown>): AccountFacts {
  if (message.account === undefined) throw new AppError('INTERNAL', `request ${message.eventId} carries no account facts; the gateway sets them on every request`);
  return message.account;
}
