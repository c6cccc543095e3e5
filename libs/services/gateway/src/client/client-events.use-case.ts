import { Inject, Injectable, Optional } from '@nestjs/common';
import type { Principal } from '@ringfence/accounts';
import type { MessageBus } from '@ringfence/bus';
import {
  CLIENT_ENCRYPTION_KEYS,
  type ClientEncryptionKeyResponseDto,
  type ClientEncryptionKeys,
  type ClientEventsAcceptedResponseDto,
  type ClientEventsRequestDto,
  EventTopics,
} from '@ringfence/contracts';
import { AppError, RateLimitedError, newEventId } from '@ringfence/platform';
import { MESSAGE_BUS } from '@ringfence/service-runtime';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

/** Calls of `POST /v2/client/events` one device may make a minute (each up to 100 events): an SDK batches, a beacon adds one at page hide. */
export const CLIENT_EVENT_CALLS_PER_DEVICE_PER_MINUTE = 60;

/** What the client route hands over besides the body: the request's trace id and the client's address. */
export interface ClientRequestFacts {
  traceId: string;
  ipAddress: string | undefined;
}

/**
 * The client SDKs' routes (ADR-0015), behind a publishable key: session events put on the bus
 * for the device read model, and the data set's card-encryption public key.
 *
 * Client traffic comes from shoppers' browsers, so it is not counted against the account's own
 * limit (a busy shop's beacons must not refuse its server's checkpoints), but per device, in
 * this gateway process: past `CLIENT_EVENT_CALLS_PER_DEVICE_PER_MINUTE` a call is 429 and
 * nothing of it is kept (a publishable key is public: anyone may send with it).
 */
@Injectable()
export class ClientEventsUseCase {
  private readonly perDevice = new RateLimiterMemory({ points: CLIENT_EVENT_CALLS_PER_DEVICE_PER_MINUTE, duration: 60 });

  constructor(
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Optional() @Inject(CLIENT_ENCRYPTION_KEYS) private readonly encryptionKeys?: ClientEncryptionKeys,
  ) {}

  /** Publishes the batch (times in ms) with the client's address, keyed by its device; answers once it is durable. */
  async accept(principal: Principal, batch: ClientEventsRequestDto, facts: ClientRequestFacts): Promise<ClientEventsAcceptedResponseDto> {
    await this.refuseWhenDeviceLimited(principal, batch.deviceId);
    const payload = facts.ipAddress === undefined ? batch : { ...batch, ipAddress: facts.ipAddress };
    await this.bus.publish(EventTopics.clientEventsReceived, {
      eventId: newEventId(),
      accountId: principal.account.id,
      environment: principal.environment,
      subjectId: batch.deviceId,
      acceptedAt: Date.now(),
      traceId: facts.traceId,
      payload,
    });
    return { status: 202, timestamp: Date.now(), data: { deviceId: batch.deviceId } };
  }

  async encryptionKey(principal: Principal): Promise<ClientEncryptionKeyResponseDto> {
    if (this.encryptionKeys === undefined) throw new AppError('DEPENDENCY_UNAVAILABLE', 'card encryption is not available in this process');
    const key = await this.encryptionKeys.currentPublicKey(principal.account.id, principal.environment);
    return { status: 200, timestamp: Date.now(), data: { keyIndex: key.keyIndex, algorithm: key.algorithm, publicKey: key.publicKey } };
  }

  private async refuseWhenDeviceLimited(principal: Principal, deviceId: string): Promise<void> {
    try {
      await this.perDevice.consume(`${principal.account.id}:${principal.environment}:${deviceId}`);
    } catch (rejection: unknown) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const retryAfterSeconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      throw new RateLimitedError(retryAfterSeconds, `the device is over its limit of ${CLIENT_EVENT_CALLS_PER_DEVICE_PER_MINUTE} calls a minute; nothing of this call was kept`);
    }
  }
}
