import { Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ACCOUNT_REPOSITORY, type AccountRepository, callbackTargetOf } from '@ringfence/accounts';
import { MessageBusController, type MessagePatternExtras } from '@ringfence/bus';
import { type CallbackTargets, SettingsCallbackTargets } from '@ringfence/callbacks';
import {
  type CallbackTargetReply,
  CallbackTargetRequest,
  type MessageEnvelope,
  type ReadAccountFactsReply,
  RpcTopics,
  accountFactsOf,
} from '@ringfence/contracts';
import { validatedRequestHandler } from '@ringfence/service-runtime';

const GATEWAY: MessagePatternExtras = { group: 'gateway' };

/**
 * The account registry's answers to the services (responder group `gateway`), for what they do
 * not learn from a request the gateway sent them (docs/architecture.md, "Each service owns its
 * data"):
 *
 * - `ringfence.rpc.gateway.read-account-facts.v1`: an account's facts (`AccountFacts`), for work
 *   that starts from an event rather than a request (scoring an `/async` transaction).
 * - `ringfence.rpc.gateway.callback-target.v1`: where the data set's review callbacks go now, and
 *   an attempt's signature. The callback secret is the one setting that never leaves the gateway
 *   (ADR-0013): the labelling service's dispatcher asks for each attempt's signature.
 *
 * Read through the caching account repository: a change made through this process applies at
 * once, one made through another gateway replica within its TTL.
 */
@MessageBusController()
export class AccountRegistryHandler {
  private readonly targets: CallbackTargets;

  constructor(@Inject(ACCOUNT_REPOSITORY) private readonly accounts: AccountRepository) {
    // The data set's own URL and secret (ADR-0016): a sandbox label never reaches the live receiver.
    this.targets = new SettingsCallbackTargets(async ({ accountId, environment }) => {
      const account = await accounts.findById(accountId);
      return account === null ? null : callbackTargetOf(account.settings, environment);
    });
  }

  @MessagePattern(RpcTopics.readAccountFacts, GATEWAY)
  async readAccountFacts(@Payload() { accountId }: MessageEnvelope<unknown>): Promise<ReadAccountFactsReply> {
    // Nothing to validate: the envelope names the account, the payload is empty.
    const account = await this.accounts.findById(accountId);
    return { account: account === null ? null : accountFactsOf(account) };
  }

  @MessagePattern(RpcTopics.callbackTarget, GATEWAY)
  callbackTarget(@Payload() message: MessageEnvelope<unknown>): Promise<CallbackTargetReply> {
    return validatedRequestHandler(CallbackTargetRequest, (valid) => this.answerCallbackTarget(valid))(message);
  }

  async answerCallbackTarget({ accountId, environment, payload }: MessageEnvelope<CallbackTargetRequest>): Promise<CallbackTargetReply> {
    const tenant = { accountId, environment };
    if (payload.signing === undefined) return { callbackUrl: await this.targets.urlOf(tenant), signature: null };
    return this.targets.sign(tenant, payload.signing.timestamp, payload.signing.body);
  }
}
