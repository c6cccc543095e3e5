import type { CallbackTenant } from './callback-delivery';
import { callbackSignature } from './callback-signature';

/** Where an account's callbacks go now, and one attempt's signature (null: the account has no secret). */
export interface SignedCallbackTarget {
  callbackUrl: string | null;
  signature: string | null;
}

/**
 * Where review callbacks go, and their signatures, as the owner of the accounts' settings
 * answers them. The callback secret stays with that owner: deliveries ask it to sign each
 * attempt rather than learn the secret (decisions §13), so in the distributed mode the secret
 * never travels on a topic.
 */
export interface CallbackTargets {
  /** The account's callback URL now; null when callbacks are off or there is no such account. */
  urlOf(tenant: CallbackTenant): Promise<string | null>;
  /** The account's URL now and the signature of `<timestamp>.<body>` with its secret. */
  sign(tenant: CallbackTenant, timestamp: number, body: string): Promise<SignedCallbackTarget>;
}

/** An account's callback settings, as the owner of the secret holds them (null: no such account). */
export interface CallbackTargetSettings {
  callbackUrl?: string | null;
  callbackSecret?: string | null;
}

/** The targets answered where the settings are kept, secret included: by the account registry's owner. */
export class SettingsCallbackTargets implements CallbackTargets {
  constructor(private readonly settingsOf: (accountId: string) => Promise<CallbackTargetSettings | null>) {}

  async urlOf(tenant: CallbackTenant): Promise<string | null> {
    return (await this.settingsOf(tenant.accountId))?.callbackUrl ?? null;
  }

  async sign(tenant: CallbackTenant, timestamp: number, body: string): Promise<SignedCallbackTarget> {
    const settings = await this.settingsOf(tenant.accountId);
    const secret = settings?.callbackSecret;
    return { callbackUrl: settings?.callbackUrl ?? null, signature: secret ? callbackSignature(secret, timestamp, body) : null };
  }
}
