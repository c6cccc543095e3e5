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
 * Issue 37: password guessing is bounded twice, in this process (each gateway process counts
 * its own): per client address (one client trying many addresses) and per e-mail address (many
 * clients trying one person's password). An attempt is taken before the password is verified
 * and given back when the sign-in succeeds, so requests sent in parallel cannot all pass the
 * check before any has failed; and one e-mail address is verified one sign-in at a time (a second
 * waits its turn). Past either limit, the sign-in answers 429 with `Retry-After`, the right
 * password included (else the answer would still tell a right guess). A person locked out by
 * someone else's guesses waits the window out; an admin may also set a new password meanwhile.
 */
@Injectable()
export class SignInAttempts {
  private readonly perAddress = new FailedAttempts(SIGN_IN_FAILURES_PER_ADDRESS, SIGN_IN_FAILURE_WINDOW_SECONDS);
  private readonly perEmail = new FailedAttempts(SIGN_IN_FAILURES_PER_EMAIL, SIGN_IN_FAILURE_WINDOW_SECONDS);
  /** The last sign-in queued per e-mail address; the next one starts when it has settled. */
  private readonly inFlight = new Map<string, Promise<unknown>>();

  /**
   * Runs `verify` once an attempt is taken for the address and the e-mail address (429 when
   * either has none left) and no other sign-in of the e-mail address is running; a sign-in that
   * succeeds (`verify` gives a value) gives its attempts back.
   */
  async attempt<T>(addressKey: string, email: string, verify: () => Promise<T | null>): Promise<T | null> {
    await this.take(addressKey, email);
    const signedIn = await this.oneAtATime(email, verify);
    if (signedIn !== null) await Promise.all([this.perAddress.refund(addressKey), this.perEmail.refund(email)]);
    return signedIn;
  }

  private async take(addressKey: string, email: string): Promise<void> {
    const byAddress = await this.perAddress.take(addressKey);
    if (byAddress !== null) throw new RateLimitedError(byAddress, `too many failed sign-ins from this address; retry after ${byAddress} s`);
    const byEmail = await this.perEmail.take(email);
    if (byEmail === null) return;
    await this.perAddress.refund(addressKey);
    throw new RateLimitedError(byEmail, `too many failed sign-ins for this e-mail address; retry after ${byEmail} s`);
  }

  /** At most one sign-in per e-mail verifies at a time; the queue is short, as each holds an attempt. */
  private async oneAtATime<T>(email: string, work: () => Promise<T>): Promise<T> {
    const previous = this.inFlight.get(email) ?? Promise.resolve();
    const mine = previous.then(work, work);
    const settled = mine.catch(() => undefined);
    this.inFlight.set(email, settled);
    try {
      return await mine;
    } finally {
      if (this.inFlight.get(email) === settled) this.inFlight.delete(email);
    }
  }
}
