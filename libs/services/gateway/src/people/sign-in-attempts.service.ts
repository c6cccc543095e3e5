import { Injectable } from '@nestjs/common';
import { RateLimitedError } from '@ringfence/platform';
import { FailedAttempts } from '@ringfence/service-runtime';

/** Failed sign-ins one client address may make in the window before it is refused (429). */
export const SIGN_IN_FAILURES_PER_ADDRESS = 20;
/** Failed sign-ins at one e-mail address, from anywhere, in the window before it is refused. */
export const SIGN_IN_FAILURES_PER_EMAIL = 10;
/** The window, from the first failure. */
export const SIGN_IN_FAILURE_WINDOW_SECONDS = 900;

/**
 * Issue 37: password guessing is bounded twice, in this process: per client address (one
 * client trying many addresses) and per e-mail address (many clients trying one person's
 * password). Past either, the sign-in answers 429 with `Retry-After`, the right password
 * included (else the answer would still tell a right guess). A person locked out by someone
 * else's guesses waits the window out; an admin may also set a new password meanwhile.
 */
@Injectable()
export class SignInAttempts {
  private readonly perAddress = new FailedAttempts(SIGN_IN_FAILURES_PER_ADDRESS, SIGN_IN_FAILURE_WINDOW_SECONDS);
  private readonly perEmail = new FailedAttempts(SIGN_IN_FAILURES_PER_EMAIL, SIGN_IN_FAILURE_WINDOW_SECONDS);

  /** Throws 429 when the address or the e-mail address is past its failures. */
  async refuseThrottled(addressKey: string, email: string): Promise<void> {
    const byAddress = await this.perAddress.retryAfterSeconds(addressKey);
    if (byAddress !== null) throw new RateLimitedError(byAddress, `too many failed sign-ins from this address; retry after ${byAddress} s`);
    const byEmail = await this.perEmail.retryAfterSeconds(email);
    if (byEmail !== null) throw new RateLimitedError(byEmail, `too many failed sign-ins for this e-mail address; retry after ${byEmail} s`);
  }

  async recordFailure(addressKey: string, email: string): Promise<void> {
    await Promise.all([this.perAddress.recordFailure(addressKey), this.perEmail.recordFailure(email)]);
  }
}
