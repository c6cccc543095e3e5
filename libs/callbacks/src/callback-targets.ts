import type { CallbackTenant } from './callback-delivery';
import { callbackSignature } from './callback-signature';

/** Where a data set's callbacks go now, and one attempt's signature (null: the data set has no secret). */
export interface SignedCallbackTarget {
  callbackUrl: string | null;
  signature: string | null;
}

/**
 * Where review callbacks go, and their signatures, as the owner of the accounts' settings
 * answers them, per data set (ADR-0016: a sandbox label never reaches the live receiver).
 * The callback secret stays with that owner: deliveries ask it to sign each attempt rather than
 * learn the secret (ADR-0013), so in the distributed mode the secret never travels on a topic.
 */
export interface CallbackTargets {
  /** The data set's callback URL now; null when its callbacks are off or there is no such account. */
  urlOf(tenant: CallbackTenant): Promise<string | null>;
  /** The data set's URL now and the signature of `<timestamp>.<body>` with its secret. */
  sign(tenant: CallbackTenant, timestamp: number, body: string): Promise<SignedCallbackTarget>;
}

/** A data set's callback settings, as the owner of the secret holds them (null: no such account). */
export interface CallbackTargetSettings {
  callbackUrl?: string | null;
  callbackSecret?: string | null;
}

/** The targets answered where the settings are kept, secret included: by the account registry's owner. */
export class SettingsCallbackTargets implements CallbackTargets {
  constructor(private readonly settingsOf: (tenant: CallbackTenant) => Promise<CallbackTargetSettings | null>) {}

  async urlOf(tenant: CallbackTenant): Promise<string | null> {
    return (await this.settingsOf(tenant))?.callbackUrl ?? null;
  }

  async sign(tenant: CallbackTenant, timestamp: number, body: string): Promise<SignedCallbackTarget> {
    const settings = await this.settingsOf(tenant);
    const secret = settings?.callbackSecret;
    return { callbackUrl: settings?.callbackUrl ?? null, signature: secret ? callbackSignature(secret, timestamp, body) : null };
  }
}
