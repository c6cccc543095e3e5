import { Injectable } from '@nestjs/common';
import { FailedAttempts } from './failed-attempts';

/** Failed operator-credential attempts one client address may make in a window before it is refused. */
export const OPERATOR_CREDENTIAL_FAILURES_PER_ADDRESS = 10;
/** The window, from an address's first failure: once over, the address may try again. */
export const OPERATOR_CREDENTIAL_FAILURE_WINDOW_SECONDS = 600;

/**
 * ADR-0016: admin-token attempts are throttled, and so are attempts at the internal
 * credential on the services' internal routes (the operator's two credentials; one count per
 * address for both, so trying both does not double the tries). Both are long and random, so
 * guessing is hopeless; what this bounds is a client that tries anyway (load on the guard, noise
 * in the log) and a credential weaker than it should be. Counted per client address
 * (`clientAddressKey`), in this process: an address past its failures gets 429 with
 * `Retry-After` on every route that takes one of these credentials, the right one included (else
 * the answer would still tell a right guess from a wrong one), while every other address is
 * unaffected.
 */
@Injectable()
export class OperatorCredentialAttempts extends FailedAttempts {
  constructor() {
    super(OPERATOR_CREDENTIAL_FAILURES_PER_ADDRESS, OPERATOR_CREDENTIAL_FAILURE_WINDOW_SECONDS);
  }
}
