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
  type NewCallbackDelivery,
} from '@ringfence/callbacks';
import type { LabelUpdatedEvent, PaymentReviewedEvent } from '@ringfence/contracts';
import { isRowRefusal } from '@ringfence/persistence';
import { type Logger, type RingfenceConfig, type RowWriter, SetAsideRows } from '@ringfence/platform';
import { MESSAGE_BUS, RINGFENCE_CONFIG, ROOT_LOGGER } from '@ringfence/service-runtime';
import { BusCallbackTargets } from './bus-callback-targets';

/** How attempts are sent: `HttpCallbackSender` (node:http(s), pinned to the addresses checked); a recording stand-in in tests. */
export const CALLBACK_SENDER = Symbol('CallbackSender');

/** The writer's name in set-aside rows, metrics and logs. */
export const CALLBACK_DELIVERIES_WRITER = 'callback-deliveries';

/**
 * The review callbacks of this process: records deliveries (for the consumer) and lists them
 * (for the deliveries read), and runs the dispatcher that sends them, from the bus's start
 * until the module is destroyed. That is before the bus stops and the database closes, so the
 * attempts it interrupts are recorded.
 *
 * A delivery the table refuses does not hold the consumer's partition (ADR-0016): each is
 * recorded through `RowWriter` (writer `callback-deliveries`), one try per delivery of its label
 * event; after its tries it is set aside, and the consumer goes on with the next events. A
 * database that cannot be reached is an outage: the event is delivered again, nothing set aside.
 */
@Injectable()
export class ReviewCallbacks implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly deliveries: CallbackDeliveries;
  private readonly dispatcher: CallbackDispatcher;
  private readonly recording: RowWriter<NewCallbackDelivery>;
  /** Deliveries the writer's last write stored anew (not a redelivered event's), by id, until `record` answers. */
  private readonly stored = new Set<string>();

  constructor(
    @Inject(CALLBACK_DELIVERY_REPOSITORY) store: CallbackDeliveryRepository,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(RINGFENCE_CONFIG) config: RingfenceConfig,
    @Inject(ROOT_LOGGER) logger: Logger,
    @Inject(CALLBACK_SENDER) sender: CallbackSender,
    setAside: SetAsideRows,
  ) {
    // The gateway owns the accounts' settings and keeps the callback secret: it answers the URL
    // and signs each attempt.
    // Off the checkpoint path: the requests' timeout, not the checkpoints' budget.
    const targets = new BusCallbackTargets(bus, config.requestTimeoutMs);
    const retry: CallbackRetryPolicy = { ...DEFAULT_CALLBACK_RETRY_POLICY, baseDelayMs: config.callbackRetryBaseMs };
    this.recording = setAside.writer<NewCallbackDelivery>(
      {
        name: CALLBACK_DELIVERIES_WRITER,
        writeAll: async (rows) => {
          for (const row of rows) if (await store.record(row)) this.stored.add(row.deliveryId);
        },
        // The event's identity, not the delivery id (a new one at each delivery of the event).
        identify: ({ accountId, environment, sourceEventId }) => ({ accountId, environment, key: JSON.stringify([accountId, environment, sourceEventId]) }),
        isUnavailable: (error) => !isRowRefusal(error),
      },
      async (row) => {
        if (await store.record(row as NewCallbackDelivery)) this.dispatcher.wake();
      },
    );
    this.deliveries = new CallbackDeliveries({ record: (delivery) => this.record(delivery), list: (tenant, page) => store.list(tenant, page) }, targets, { retry });
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

  async recordPaymentReview(eventId: string, event: PaymentReviewedEvent): Promise<LabelChangeRecording> {
    const recording = await this.deliveries.recordPaymentReview(eventId, event);
    if (recording === 'recorded') this.dispatcher.wake();
    return recording;
  }

  list(tenant: CallbackTenant, page: CallbackDeliveryPage): Promise<CallbackDelivery[] | null> {
    return this.deliveries.list(tenant, page);
  }

  /**
   * True when the delivery was stored anew; false for a redelivered event's, and for one set
   * aside after its tries. Rejects while a refused delivery has tries left, or the database is
   * unavailable, so the bus delivers the event again.
   */
  private async record(delivery: NewCallbackDelivery): Promise<boolean> {
    await this.recording.write([delivery]);
    return this.stored.delete(delivery.deliveryId);
  }
}
