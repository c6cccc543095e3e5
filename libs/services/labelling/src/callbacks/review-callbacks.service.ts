import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { MessageBus } from '@ringfence/bus';
import {
  CALLBACK_DELIVERY_REPOSITORY,
  CallbackDeliveries,
  type CallbackDelivery,
  type CallbackDeliveryPage,
  type CallbackDeliveryRepository,
  CallbackDispatcher,
  type CallbackRetryPolicy,
  type CallbackTenant,
  type CallbackSender,
  DEFAULT_CALLBACK_RETRY_POLICY,
  type LabelChangeRecording,
} from '@ringfence/callbacks';
import type { LabelUpdatedEvent } from '@ringfence/contracts';
import type { Logger, RingfenceConfig } from '@ringfence/platform';
import { MESSAGE_BUS, RINGFENCE_CONFIG, ROOT_LOGGER } from '@ringfence/service-runtime';
import { BusCallbackTargets } from './bus-callback-targets';

/** How attempts are sent: `HttpCallbackSender` (node:http(s), pinned to the addresses checked); a recording stand-in in tests. */
export const CALLBACK_SENDER = Symbol('CallbackSender');

/**
 * The review callbacks of this process: records deliveries (for the consumer) and lists them
 * (for the deliveries read), and runs the dispatcher that sends them, from the bus's start
 * until the module is destroyed. That is before the bus stops and the database closes, so the
 * attempts it interrupts are recorded.
 */
@Injectable()
export class ReviewCallbacks implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly deliveries: CallbackDeliveries;
  private readonly dispatcher: CallbackDispatcher;

  constructor(
    @Inject(CALLBACK_DELIVERY_REPOSITORY) store: CallbackDeliveryRepository,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(RINGFENCE_CONFIG) config: RingfenceConfig,
    @Inject(ROOT_LOGGER) logger: Logger,
    @Inject(CALLBACK_SENDER) sender: CallbackSender,
  ) {
    // The gateway owns the accounts' settings and keeps the callback secret: it answers the URL
    // and signs each attempt.
    // Off the checkpoint path: the requests' timeout, not the checkpoints' budget.
    const targets = new BusCallbackTargets(bus, config.requestTimeoutMs);
    const retry: CallbackRetryPolicy = { ...DEFAULT_CALLBACK_RETRY_POLICY, baseDelayMs: config.callbackRetryBaseMs };
    this.deliveries = new CallbackDeliveries(store, targets, { retry });
    this.dispatcher = new CallbackDispatcher({
      deliveries: store,
      targets,
      sender,
      logger: logger.child({ component: 'review-callbacks' }),
      retry,
    });
  }

  /**
   * The dispatcher asks the gateway, over the bus, to sign each attempt, and Nest starts the bus
   * only after the bootstrap hooks: it starts once the bus has (not at all if the bus stops first).
   */
  onApplicationBootstrap(): void {
    void this.bus.whenStarted().then((started) => {
      if (started) this.dispatcher.start();
    });
  }

  onModuleDestroy(): Promise<void> {
    return this.dispatcher.stop();
  }

  async recordLabelChange(eventId: string, event: LabelUpdatedEvent): Promise<LabelChangeRecording> {
    const recording = await this.deliveries.recordLabelChange(eventId, event);
    if (recording === 'recorded') this.dispatcher.wake();
    return recording;
  }

  list(tenant: CallbackTenant, page: CallbackDeliveryPage): Promise<CallbackDelivery[] | null> {
    return this.deliveries.list(tenant, page);
  }
}
