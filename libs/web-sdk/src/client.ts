import { autoTrack } from './auto-track';
import { type CardDetails, type EncryptionKey, type PaymentMethodCipher, encryptCard } from './card-cipher';
import type { DeviceReport } from './device-info';
import { type IdentityStores, deviceIdentifier, sessionIdentifier } from './device-identity';
import { EVENT_TYPE_PATTERN, type ElementRef, EventQueue, MAX_EVENTS_PER_BATCH, MAX_EVENT_TYPE_LENGTH, MAX_NAME_LENGTH, type PageRef, type SessionEvent, clip } from './event-queue';
import { SendError, type Transport } from './transport';

/** An event's optional details: the page and the element it concerns (never a field's value). */
export interface TrackProperties {
  page?: PageRef;
  element?: ElementRef;
}

/** What a client runs on; the browser's in production (browser-environment.ts), a fake in tests. */
export interface ClientEnvironment {
  crypto: Crypto;
  transport: Transport;
  stores: IdentityStores;
  describeDevice(): Promise<DeviceReport>;
  now(): number;
  /** For the automatic tracking: page views, pastes, form submissions and page hiding. */
  window?: Window;
  setTimeout(callback: () => void, milliseconds: number): unknown;
  onError(error: unknown): void;
}

export interface ClientOptions {
  /** Set the customer's id once known (after sign-in); sent with every batch after. */
  customerId?: string;
  /** Track page views, pastes and form submissions without being asked (default true). */
  autoTrack?: boolean;
  /** How long an event waits for others to share its request (default 2,000 ms). */
  flushDelayMs?: number;
}

/** A fetched encryption key is used for this long; a newer one is fetched after (rotation). */
const ENCRYPTION_KEY_LIFETIME_MS = 60 * 60 * 1000;
const DEFAULT_FLUSH_DELAY_MS = 2000;

/** The SDK client `Ringfence.init` returns (ADR-0015). */
export class RingfenceClient {
  readonly deviceId: string;
  readonly sessionId: string;
  private customerId: string | undefined;
  private readonly queue = new EventQueue();
  private readonly device: Promise<DeviceReport | undefined>;
  /** The device report once made, for the page-hide beacon, which cannot wait for it. */
  private deviceReady: DeviceReport | undefined;
  private encryptionKey: { key: Promise<EncryptionKey>; fetchedAt: number } | undefined;
  private flushTimer: unknown;
  private sending: Promise<void> = Promise.resolve();
  private readonly detach: () => void = () => undefined;

  constructor(
    private readonly environment: ClientEnvironment,
    private readonly options: ClientOptions = {},
  ) {
    this.deviceId = deviceIdentifier(environment.stores, environment.crypto);
    this.sessionId = sessionIdentifier(environment.stores, environment.crypto);
    this.customerId = options.customerId;
    this.device = environment.describeDevice().then(
      (device) => (this.deviceReady = device),
      (error: unknown) => {
        environment.onError(error);
        return undefined;
      },
    );
    if (environment.window && options.autoTrack !== false) {
      this.detach = autoTrack(environment.window, (type, details) => this.track(type, details), () => this.flushOnHide());
    }
  }

  /** Queues an event; it is sent within the flush delay, or at once when a batch is full. */
  track(type: string, properties: TrackProperties = {}): void {
    if (typeof type !== 'string' || !EVENT_TYPE_PATTERN.test(type) || type.length > MAX_EVENT_TYPE_LENGTH) {
      throw new TypeError(`Ringfence.track: ${JSON.stringify(type)} is not an event type (up to 64 letters, digits, - and _)`);
    }
    const event: SessionEvent = { type, time: this.environment.now() };
    const { page, element } = properties;
    if (page?.url) event.page = { url: clip(page.url), ...(page.referrer ? { referrer: clip(page.referrer) } : {}) };
    if (element?.name || element?.kind) {
      event.element = { ...(element.name ? { name: clip(element.name, MAX_NAME_LENGTH) } : {}), ...(element.kind ? { kind: clip(element.kind, MAX_NAME_LENGTH) } : {}) };
    }
    this.queue.push(event);
    if (this.queue.size >= MAX_EVENTS_PER_BATCH) this.flushInBackground();
    else this.scheduleFlush();
  }

  /** The customer the session belongs to, once known (sign-in); sent with the batches after. */
  identify(customerId: string | undefined): void {
    this.customerId = customerId;
  }

  /**
   * Sends every queued event now, after any flush under way. Resolves once all were accepted;
   * rejects with the first failure (the batch is kept for the next flush when it may pass later:
   * network, 429, 5xx; a refusal such as 403 drops it, as it would be refused again).
   */
  flush(): Promise<void> {
    const run = this.sending.then(() => this.sendAll());
    this.sending = run.catch(() => undefined);
    return run;
  }

  /** The card as a Payment Method Cipher under the service's current public key. */
  async encryptCard(card: CardDetails): Promise<PaymentMethodCipher> {
    const now = this.environment.now();
    if (!this.encryptionKey || now - this.encryptionKey.fetchedAt > ENCRYPTION_KEY_LIFETIME_MS) {
      const key = this.environment.transport.encryptionKey();
      this.encryptionKey = { key, fetchedAt: now };
      // A failed fetch is not kept: the next call asks again.
      key.catch(() => (this.encryptionKey = undefined));
    }
    return encryptCard(this.environment.crypto, await this.encryptionKey.key, card);
  }

  /** Stops the automatic tracking (the queued events stay until flushed). */
  destroy(): void {
    this.detach();
  }

  private scheduleFlush(): void {
    if (this.flushTimer !== undefined) return;
    this.flushTimer = this.environment.setTimeout(() => {
      this.flushTimer = undefined;
      this.flushInBackground();
    }, this.options.flushDelayMs ?? DEFAULT_FLUSH_DELAY_MS);
  }

  private flushInBackground(): void {
    this.flush().catch((error: unknown) => this.environment.onError(error));
  }

  private envelope(device: DeviceReport | undefined) {
    return { timestamp: this.environment.now(), deviceId: this.deviceId, sessionId: this.sessionId, ...(this.customerId ? { customerId: this.customerId } : {}), ...(device ? { device } : {}) };
  }

  private async sendAll(): Promise<void> {
    const device = await this.device;
    for (let batch = this.queue.take(this.envelope(device)); batch; batch = this.queue.take(this.envelope(device))) {
      try {
        await this.environment.transport.send(batch.body);
      } catch (error) {
        if (error instanceof SendError && error.retry) this.queue.requeue(batch.events);
        throw error;
      }
    }
  }

  /**
   * The page is going away: what is queued leaves by beacon, synchronously, without waiting for
   * the device report if it is not ready (the batch then goes without it).
   */
  private flushOnHide(): void {
    const device = this.deviceReady;
    for (let batch = this.queue.take(this.envelope(device)); batch; batch = this.queue.take(this.envelope(device))) {
      this.environment.transport.beacon(batch.body);
    }
  }
}
