import type { MessageBus } from '@ringfence/bus';
import type { CallbackTargets, CallbackTenant, SignedCallbackTarget } from '@ringfence/callbacks';
import { type CallbackTargetRequest, RpcTopics } from '@ringfence/contracts';
import { newEventId } from '@ringfence/platform';

/**
 * The review callbacks' targets, asked of the account registry's owner (the gateway) over the
 * bus (`ringfence.rpc.gateway.callback-target.v1`): the labelling service keeps no copy of the
 * accounts' settings, and never sees a callback secret, only each attempt's signature.
 */
export class BusCallbackTargets implements CallbackTargets {
  constructor(
    private readonly bus: MessageBus,
    private readonly timeoutMs: number,
  ) {}

  async urlOf(tenant: CallbackTenant): Promise<string | null> {
    return (await this.ask(tenant, {})).callbackUrl;
  }

  sign(tenant: CallbackTenant, timestamp: number, body: string): Promise<SignedCallbackTarget> {
    return this.ask(tenant, { signing: { timestamp, body } });
  }

  private ask(tenant: CallbackTenant, payload: CallbackTargetRequest): Promise<SignedCallbackTarget> {
    const eventId = newEventId();
    return this.bus.request(
      RpcTopics.callbackTarget,
      // Keyed by the account: its callback questions go to one partition, in order.
      { eventId, accountId: tenant.accountId, environment: tenant.environment, subjectId: tenant.accountId, acceptedAt: Date.now(), traceId: eventId, payload },
      { timeoutMs: this.timeoutMs },
    );
  }
}
