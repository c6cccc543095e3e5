import {
  type CallHandler,
  type CanActivate,
  Controller,
  createParamDecorator,
  type ExecutionContext,
  Injectable,
  type INestApplication,
  Module,
  type NestInterceptor,
  type PipeTransform,
  Scope,
  type Type,
  UseFilters,
  UseGuards,
  UseInterceptors,
  UsePipes,
} from '@nestjs/common';
import { APP_GUARD, NestFactory } from '@nestjs/core';
import { BaseRpcExceptionFilter, Ctx, EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { EventTopics, type MessageEnvelope, RpcTopics } from '@ringfence/contracts';
import { AppError } from '@ringfence/platform';
import { type Observable, EMPTY, of } from 'rxjs';
import { BusRemoteError } from '../bus-errors';
import { InProcessMessageBus } from '../in-process/in-process-message-bus';
import type { MessageBus } from '../message-bus';
import { InMemoryEventLogStore } from '../test-support/in-memory-event-log.store';
import { markerOf, requestEnvelope, type TestPayload } from '../test-support/message-envelope.factory';
import { checkSameHandlersAsNest, type DirectHandlerDeclaration } from './bus-handler-declarations';
import { type ConnectMessageBusOptions, connectMessageBus } from './connect-message-bus';
import { MessageBusContext } from './message-bus.context';
import { MessageBusController } from './message-bus.controller';
import { MessageBusExceptionFilter } from './message-bus.exception-filter';
import { startBusControllers } from './start-bus-controllers';

const CHECKPOINT = RpcTopics.customerCheckpoint;
const READ_DECISION = RpcTopics.readDecision;
const CUSTOMER_UPDATED = EventTopics.customerUpdated;

/** What the handlers saw, for the test to look at. */
@Injectable()
class Sightings {
  readonly calls: Array<{ receiver: unknown; args: unknown[] }> = [];
  abortedWith: unknown;
  started!: () => void;
  readonly handlerStarted = new Promise<void>((resolve) => (this.started = resolve));
}

@MessageBusController()
class AnsweringController {
  constructor(private readonly sightings: Sightings) {}

  @MessagePattern(CHECKPOINT, { group: 'direct-spec' })
  answer(@Payload() message: MessageEnvelope<TestPayload>, @Ctx() context: MessageBusContext): Promise<unknown> | Observable<unknown> {
    this.sightings.calls.push({ receiver: this, args: [message, context] });
    switch (markerOf(message)) {
      case 'refused':
        // A synchronous throw from a method that is not async: the bus still gets it as thrown.
        throw new AppError('VALIDATION_FAILED', 'payload.marker: refused');
      case 'observable':
        return of('first', 'last');
      case 'empty':
        return EMPTY;
      case 'long':
        return this.waitForAbandonment(context.getSignal());
    }
    return Promise.resolve({ topic: context.getTopic(), marker: markerOf(message) });
  }

  /** Undecorated: Nest passes the payload alone. */
  @MessagePattern(READ_DECISION, { group: 'direct-spec' })
  undecorated(...args: unknown[]): Promise<number> {
    return Promise.resolve(args.length);
  }

  private async waitForAbandonment(signal: AbortSignal): Promise<never> {
    this.sightings.started();
    await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    this.sightings.abortedWith = signal.reason;
    throw signal.reason;
  }
}

@Injectable()
class DenyEverything implements CanActivate {
  canActivate(): boolean {
    return false;
  }
}

@Injectable()
class Untouched implements PipeTransform {
  transform(value: unknown): unknown {
    return value;
  }
}

@Injectable()
class PassThrough implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle();
  }
}

const Marker = createParamDecorator((_data: unknown, context: ExecutionContext) => markerOf(context.switchToRpc().getData<MessageEnvelope<unknown>>()));

@MessageBusController()
@UseGuards(DenyEverything)
class GuardedController {
  @MessagePattern(CHECKPOINT, { group: 'direct-spec' })
  answer(): Promise<string> {
    return Promise.resolve('answered');
  }
}

@MessageBusController()
class InterceptedController {
  @UseInterceptors(PassThrough)
  @EventPattern(CUSTOMER_UPDATED, { group: 'direct-spec' })
  apply(): Promise<void> {
    return Promise.resolve();
  }
}

@MessageBusController()
@UsePipes(Untouched)
class PipedController {
  @EventPattern(CUSTOMER_UPDATED, { group: 'direct-spec' })
  apply(): Promise<void> {
    return Promise.resolve();
  }
}

@MessageBusController()
class ParameterPipeController {
  @EventPattern(CUSTOMER_UPDATED, { group: 'direct-spec' })
  apply(@Payload(Untouched) _message: unknown): Promise<void> {
    return Promise.resolve();
  }
}

@MessageBusController()
class PropertyPickingController {
  @EventPattern(CUSTOMER_UPDATED, { group: 'direct-spec' })
  apply(@Payload('payload') _payload: unknown): Promise<void> {
    return Promise.resolve();
  }
}

@MessageBusController()
class CustomParameterController {
  @EventPattern(CUSTOMER_UPDATED, { group: 'direct-spec' })
  apply(@Marker() _marker: string): Promise<void> {
    return Promise.resolve();
  }
}

@Controller()
class PlainController {
  @EventPattern(CUSTOMER_UPDATED, { group: 'direct-spec' })
  apply(): Promise<void> {
    return Promise.resolve();
  }
}

@MessageBusController()
@UseFilters(new BaseRpcExceptionFilter())
class OtherFilterController {
  @EventPattern(CUSTOMER_UPDATED, { group: 'direct-spec' })
  apply(): Promise<void> {
    return Promise.resolve();
  }
}

@Controller({ scope: Scope.REQUEST })
@UseFilters(MessageBusExceptionFilter)
class RequestScopedController {
  @EventPattern(CUSTOMER_UPDATED, { group: 'direct-spec' })
  apply(): Promise<void> {
    return Promise.resolve();
  }
}

/** A bus that is not the in-process one: it registers and starts, and nothing more. */
class InertBus implements MessageBus {
  publish = () => Promise.resolve();
  request = () => Promise.reject(new Error('not in these tests'));
  subscribe = () => undefined;
  handle = () => undefined;
  start = () => Promise.resolve();
  stop = () => Promise.resolve();
  isReady = () => Promise.resolve(true);
  whenStarted = () => Promise.resolve(true);
}

const apps: INestApplication[] = [];

afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

interface Created {
  app: INestApplication;
  sightings: Sightings;
}

async function createApp(controllers: Array<Type<unknown>>, bus: MessageBus, options?: ConnectMessageBusOptions, appGuard?: Type<CanActivate>): Promise<Created> {
  const sightings = new Sightings();
  const providers = [{ provide: Sightings, useValue: sightings }, ...(appGuard === undefined ? [] : [{ provide: APP_GUARD, useClass: appGuard }])];
  @Module({ controllers, providers })
  class DirectSpecModule {}
  const app = await NestFactory.create(DirectSpecModule, new FastifyAdapter(), { logger: false });
  apps.push(app);
  connectMessageBus(app, bus, options);
  await app.init();
  return { app, sightings };
}

function inProcessBus(): InProcessMessageBus {
  return new InProcessMessageBus({ eventLog: new InMemoryEventLogStore() });
}

async function startAnswering(): Promise<{ bus: InProcessMessageBus; app: INestApplication; sightings: Sightings }> {
  const bus = inProcessBus();
  const { app, sightings } = await createApp([AnsweringController], bus);
  await app.startAllMicroservices();
  return { bus, app, sightings };
}

const ask = (bus: MessageBus, marker: string, options: { signal?: AbortSignal } = {}) =>
  bus.request(CHECKPOINT, requestEnvelope(CHECKPOINT, { payload: { marker } }), { timeoutMs: 1_000, ...options });

describe('MessageBusServer, direct dispatch', () => {
  it('is the dispatch on the in-process bus, and Nest’s pipeline on any other bus', async () => {
    const direct = await createApp([GuardedController], inProcessBus());
    const nest = await createApp([GuardedController], new InertBus());

    await expect(direct.app.startAllMicroservices()).rejects.toThrow('GuardedController.answer has a guard (DenyEverything)');
    await expect(nest.app.startAllMicroservices()).resolves.toBeDefined();
  });

  it('calls the controller Nest created with the envelope the requester sent, and answers with its value', async () => {
    const { app, bus, sightings } = await startAnswering();
    const envelope = requestEnvelope(CHECKPOINT, { payload: { marker: 'hello' } });

    const reply = await bus.request(CHECKPOINT, envelope, { timeoutMs: 1_000 });

    expect(reply).toEqual({ topic: CHECKPOINT, marker: 'hello' });
    const [{ receiver, args }] = sightings.calls;
    expect(receiver).toBe(app.get(AnsweringController));
    expect(args[0]).toBe(envelope);
    expect(args[1]).toBeInstanceOf(MessageBusContext);
  });

  it('passes a method without parameter decorators the envelope alone, as Nest does', async () => {
    const { bus } = await startAnswering();

    await expect(bus.request(READ_DECISION, requestEnvelope(READ_DECISION), { timeoutMs: 1_000 })).resolves.toBe(1);
  });

  it("answers with an Observable's last value, or nothing when it completes empty", async () => {
    const { bus } = await startAnswering();

    await expect(ask(bus, 'observable')).resolves.toBe('last');
    await expect(ask(bus, 'empty')).resolves.toBeUndefined();
  });

  it('hands a synchronous throw to the bus as thrown: an AppError keeps its code and status', async () => {
    const { bus } = await startAnswering();

    const error = await ask(bus, 'refused').catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(BusRemoteError);
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', status: 400, message: 'payload.marker: refused' });
  });

  it("gives the handler the request's signal, which aborts when the requester gives up", async () => {
    const { bus, sightings } = await startAnswering();
    const requester = new AbortController();

    const answering = ask(bus, 'long', { signal: requester.signal }).catch((caught: unknown) => caught);
    await sightings.handlerStarted;
    requester.abort(new Error('the client went away'));

    // Answered as abandoned: the bus saw the handler stop with its signal's reason.
    expect(await answering).toMatchObject({ code: 'TIMEOUT', status: 504 });
    expect(sightings.abortedWith).toMatchObject({ name: 'AbortError' });
  });

  it("keeps what never applied to bus handlers out of both dispatches: the app's global guard", async () => {
    for (const dispatch of ['nest', 'direct'] as const) {
      const bus = inProcessBus();
      const { app } = await createApp([AnsweringController], bus, { dispatch }, DenyEverything);
      await app.startAllMicroservices();

      await expect(ask(bus, 'hello')).resolves.toEqual({ topic: CHECKPOINT, marker: 'hello' });
    }
  });

  describe('refuses to start what it cannot honour, rather than skip it', () => {
    it.each<[string, Type<unknown>, string]>([
      ['an interceptor', InterceptedController, 'InterceptedController.apply has an interceptor (PassThrough)'],
      ['a pipe on the controller', PipedController, 'PipedController.apply has a pipe (Untouched)'],
      ['a pipe on a parameter', ParameterPipeController, 'ParameterPipeController.apply has a pipe on parameter 0 (Untouched)'],
      ['a property of the payload', PropertyPickingController, 'PropertyPickingController.apply picks a property of the payload (@Payload("payload"))'],
      ['a custom parameter decorator', CustomParameterController, 'CustomParameterController.apply has a parameter decorator other than @Payload() and @Ctx()'],
      ['another exception filter', OtherFilterController, 'OtherFilterController.apply has an exception filter other than MessageBusExceptionFilter (BaseRpcExceptionFilter)'],
      ['no MessageBusExceptionFilter', PlainController, 'PlainController.apply is not on a @MessageBusController()'],
      ['a request-scoped controller', RequestScopedController, 'RequestScopedController.apply is request-scoped'],
    ])('%s', async (_what, controller, message) => {
      const bus = inProcessBus();
      const { app } = await createApp([controller], bus, { dispatch: 'direct' });

      await expect(app.startAllMicroservices()).rejects.toThrow(message);
      expect(await bus.isReady()).toBe(false);
    });
  });
});

describe(startBusControllers.name, () => {
  it('dispatches as the app does: directly on the in-process bus, through Nest on another', async () => {
    await expect(startBusControllers(inProcessBus(), { controllers: [GuardedController] })).rejects.toThrow('GuardedController.answer has a guard');
    const nest = await startBusControllers(new InertBus(), { controllers: [GuardedController] });
    await nest.close();
  });

  it('refuses a global enhancer, which the direct dispatch would not run, unless told to use Nest', async () => {
    const providers = [{ provide: Sightings, useValue: new Sightings() }, { provide: APP_GUARD, useClass: DenyEverything }];

    await expect(startBusControllers(inProcessBus(), { controllers: [AnsweringController], providers })).rejects.toThrow(`${APP_GUARD} would not run on the direct dispatch`);
    const nest = await startBusControllers(inProcessBus(), { controllers: [AnsweringController], providers }, { dispatch: 'nest' });
    await nest.close();
  });
});

describe(checkSameHandlersAsNest.name, () => {
  const declaration = (topic: string, extras: Record<string, unknown>): DirectHandlerDeclaration => ({
    kind: 'event',
    topic,
    extras,
    controller: {},
    method: () => undefined,
    argumentSources: ['payload'],
    name: 'StateController.apply',
  });

  it('accepts the handlers Nest registered, extras compared by value', () => {
    expect(() => checkSameHandlersAsNest([declaration(CUSTOMER_UPDATED, { group: 'state' })], [{ kind: 'event', topic: CUSTOMER_UPDATED, extras: { group: 'state' } }])).not.toThrow();
  });

  it('refuses a handler Nest registered that the direct dispatch did not find, and one Nest did not register', () => {
    expect(() => checkSameHandlersAsNest([], [{ kind: 'event', topic: CUSTOMER_UPDATED, extras: { group: 'state' } }])).toThrow(`not found event ${CUSTOMER_UPDATED}`);
    expect(() => checkSameHandlersAsNest([declaration(CUSTOMER_UPDATED, { group: 'state' })], [])).toThrow(`not registered by Nest event ${CUSTOMER_UPDATED} (StateController.apply)`);
    expect(() => checkSameHandlersAsNest([declaration(CUSTOMER_UPDATED, { group: 'state' })], [{ kind: 'event', topic: CUSTOMER_UPDATED, extras: { group: 'audit' } }])).toThrow('not found');
  });
});
