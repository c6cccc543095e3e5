import type { InjectionToken } from '@nestjs/common';
import { type CustomTransportStrategy, type MessageHandler, Server } from '@nestjs/microservices';
import type { EventTopic, MessageEnvelope, RpcTopic } from '@ringfence/contracts';
import { lastValueFrom } from 'rxjs';
import type { MessageBus, RespondOptions, RpcContext, SubscribeOptions } from '../message-bus';
import { checkSameHandlersAsNest, type DirectHandlerDeclaration, type DiscoveredController, declaredBusHandlers, type NestRegistration } from './bus-handler-declarations';
import { directEventHandler, directRequestHandler } from './direct-bus-handler';
import { MessageBusContext } from './message-bus.context';
import { type EventPatternExtras, MESSAGE_BUS_TRANSPORT, type MessagePatternExtras, type WriteBehind } from './message-bus.patterns';

export interface MessageBusServerOptions {
  /**
   * Resolves the provider named by an `@EventPattern`'s `beforeCommit` extra: the app's
   * `get(token, { strict: false })`. Without it such an extra stops `listen`.
   */
  resolve?: (token: InjectionToken) => unknown;
  /**
   * Set: each declared handler is registered on the bus as a direct call of its controller's
   * method (`direct-bus-handler.ts`), without Nest's per-message pipeline; `controllers` lists
   * the app's controllers (`DiscoveryService.getControllers()`). Unset: Nest's wrapped handlers.
   */
  directDispatch?: { controllers: () => readonly DiscoveredController[] };
}

interface Registration {
  topic: string;
  handler: MessageHandler;
  extras: Record<string, unknown>;
}

const EVENT_EXTRAS: ReadonlySet<string> = new Set(['group', 'beforeCommit']);
const MESSAGE_EXTRAS: ReadonlySet<string> = new Set(['group', 'consistentWith', 'readsThrough']);

function describeHandler(kind: string, topic: string): string {
  return `the ${kind} handler of ${topic}`;
}

/** The group every pattern must name, and no extra the bus would not read (a typo would be ignored silently). */
function checkedExtras(kind: string, topic: string, extras: Record<string, unknown>, allowed: ReadonlySet<string>): void {
  const unknown = Object.keys(extras).filter((key) => !allowed.has(key));
  if (unknown.length > 0) {
    throw new Error(`${describeHandler(kind, topic)} has extras the bus does not read: ${unknown.join(', ')} (it reads ${[...allowed].join(', ')})`);
  }
  if (typeof extras.group !== 'string' || extras.group.length === 0) {
    throw new Error(`${describeHandler(kind, topic)} names no group: declare it as ${kind === 'event' ? '@EventPattern' : '@MessagePattern'}(topic, { group: '…' })`);
  }
}

/**
 * The `MessageBus` as a NestJS custom transporter (a `CustomTransportStrategy`): controllers
 * declare `@MessagePattern(topic, { group, consistentWith })` and `@EventPattern(topic, { group,
 * beforeCommit })`, and `listen` registers each as `bus.handle` and `bus.subscribe` with those
 * options, then starts the bus; `close` stops it. The bus keeps its own semantics (durable
 * publish, consumer groups, order per key, read-your-writes, write behind, retry of a throwing
 * event handler); Nest contributes the declarations and, unless the server dispatches directly,
 * the handler pipeline (pipes, interceptors, guards and filters bound to the controller).
 *
 * With `directDispatch` (the in-process bus: `connectMessageBus`'s default there) a message is
 * a call of the controller's method with the envelope and, where the method takes `@Ctx()`, a
 * `MessageBusContext`: no RPC context, exception handler or Observable per message. Nothing of
 * what that pipeline did to these handlers is lost (no guard, pipe or interceptor bound to any,
 * the filter hands errors on unchanged), and a handler it would change is refused at start.
 *
 * Handlers get the message envelope as their data (`@Payload()`) and a `MessageBusContext`
 * (`@Ctx()`). What a handler throws must reach the bus as it was thrown, so the bus maps it as
 * it maps every responder's error: connect the transporter with `connectMessageBus`, which
 * installs `MessageBusExceptionFilter` (Nest's default RPC filter would turn every unknown
 * error into a generic object, losing an `AppError`'s code and status).
 */
export class MessageBusServer extends Server implements CustomTransportStrategy {
  override readonly transportId = MESSAGE_BUS_TRANSPORT;
  private readonly eventHandlers: Registration[] = [];
  /** The write-behind flush of each `beforeCommit` provider, made once. */
  private readonly flushes = new WeakMap<WriteBehind, () => Promise<void>>();

  constructor(
    private readonly bus: MessageBus,
    private readonly options: MessageBusServerOptions = {},
  ) {
    super();
  }

  /**
   * Called by Nest for every pattern of every controller. Nest chains the event handlers of one
   * pattern so that one delivery runs them all; on the bus each is a consumer group of its
   * own, with its own offsets and retries, so they are kept apart. A second `@MessagePattern`
   * of one topic would silently replace the first in Nest's map: it is refused instead.
   */
  override addHandler(pattern: unknown, callback: MessageHandler, isEventHandler = false, extras: Record<string, unknown> = {}): void {
    if (typeof pattern !== 'string') throw new Error(`a bus pattern is a topic name, not ${JSON.stringify(pattern)}`);
    const topic = this.normalizePattern(pattern);
    if (isEventHandler) {
      callback.isEventHandler = true;
      callback.extras = extras;
      this.eventHandlers.push({ topic, handler: callback, extras });
      return;
    }
    if (this.messageHandlers.has(topic)) throw new Error(`${topic} has two @MessagePattern handlers; a request topic has one responder`);
    super.addHandler(pattern, callback, false, extras);
  }

  /** Registers every declared handler on the bus, then starts it; the callback gets a failure of either. */
  async listen(callback: (error?: unknown) => void): Promise<void> {
    try {
      if (this.options.directDispatch === undefined) this.registerNestHandlers();
      else this.registerDirectHandlers(this.options.directDispatch.controllers());
      await this.bus.start();
    } catch (error) {
      callback(error);
      return;
    }
    callback();
  }

  /** Each message through Nest's RPC pipeline: a `MessageBusContext`, the handler Nest wrapped, its value as an Observable. */
  private registerNestHandlers(): void {
    for (const [topic, handler] of this.getHandlers()) {
      // `context` may be missing where a test double calls the handler as a bus would; the context then has a signal that never aborts.
      this.bus.handle(topic as RpcTopic, this.respondOptions(topic, handler.extras ?? {}), (message, context: RpcContext | undefined) => this.answer(topic, handler, message, context));
    }
    for (const { topic, handler, extras } of this.eventHandlers) {
      this.bus.subscribe(topic as EventTopic, this.subscribeOptions(topic, extras), (message) => this.deliver(topic, handler, message));
    }
  }

  /**
   * Each message as a call of the controller's method: the same declarations, options
   * and checks as `registerNestHandlers`, and the same handlers as Nest registered, or the start
   * fails; so does a guard, pipe, interceptor or parameter decorator the direct call would skip.
   */
  private registerDirectHandlers(controllers: readonly DiscoveredController[]): void {
    const declarations = declaredBusHandlers(controllers, this.transportId);
    checkSameHandlersAsNest(declarations, this.nestRegistrations());
    for (const declaration of declarations) this.registerDirect(declaration);
  }

  private registerDirect(declaration: DirectHandlerDeclaration): void {
    const { kind, topic, extras } = declaration;
    if (kind === 'request') this.bus.handle(topic as RpcTopic, this.respondOptions(topic, extras), directRequestHandler(declaration) as never);
    else this.bus.subscribe(topic as EventTopic, this.subscribeOptions(topic, extras), directEventHandler(declaration));
  }

  private nestRegistrations(): NestRegistration[] {
    const requests = [...this.getHandlers()].map(([topic, handler]): NestRegistration => ({ kind: 'request', topic, extras: handler.extras ?? {} }));
    const events = this.eventHandlers.map(({ topic, extras }): NestRegistration => ({ kind: 'event', topic, extras }));
    return [...requests, ...events];
  }

  /** Stops the bus: in-flight handlers finish and their offsets are committed. */
  async close(): Promise<void> {
    await this.bus.stop();
  }

  /** Whether each message is a direct call of its controller's method (`directDispatch`). */
  get dispatchesDirectly(): boolean {
    return this.options.directDispatch !== undefined;
  }

  on(): never {
    throw new Error('the message bus transporter has no events to listen to; use the bus readiness (isReady)');
  }

  unwrap<T>(): T {
    return this.bus as T;
  }

  private respondOptions(topic: string, extras: Record<string, unknown>): RespondOptions {
    checkedExtras('message', topic, extras, MESSAGE_EXTRAS);
    const { group, consistentWith, readsThrough } = extras as unknown as MessagePatternExtras;
    return { group, ...(consistentWith === undefined ? {} : { consistentWith }), ...(readsThrough === undefined ? {} : { readsThrough }) };
  }

  private subscribeOptions(topic: string, extras: Record<string, unknown>): SubscribeOptions {
    checkedExtras('event', topic, extras, EVENT_EXTRAS);
    const { group, beforeCommit } = extras as unknown as EventPatternExtras;
    if (beforeCommit === undefined) return { group };
    if (this.options.resolve === undefined) {
      throw new Error(`${describeHandler('event', topic)} names a beforeCommit provider, but the transporter was created without a resolver`);
    }
    const provider = this.options.resolve(beforeCommit) as WriteBehind | undefined;
    if (provider?.flush === undefined) return { group };
    // One function per provider: the in-process bus flushes each distinct hook once per commit.
    let flush = this.flushes.get(provider);
    if (flush === undefined) {
      flush = provider.flush.bind(provider);
      this.flushes.set(provider, flush);
    }
    return { group, beforeCommit: flush };
  }

  /** A request: the handler's value (the last one, should it return an Observable) is the reply. */
  private async answer(topic: string, handler: MessageHandler, message: MessageEnvelope<unknown>, context: RpcContext | undefined): Promise<never> {
    const result: unknown = await handler(message, new MessageBusContext([topic, context]));
    return (await lastValueFrom(this.transformToObservable(result), { defaultValue: undefined })) as never;
  }

  /** An event: resolves once the handler is done; a throw makes the bus deliver the event again. */
  private async deliver(topic: string, handler: MessageHandler, message: MessageEnvelope<unknown>): Promise<void> {
    const result: unknown = await handler(message, new MessageBusContext([topic]));
    await lastValueFrom(this.transformToObservable(result), { defaultValue: undefined });
  }
}
