import type { MessageEnvelope } from '@ringfence/contracts';
import { isObservable, lastValueFrom } from 'rxjs';
import type { RpcContext } from '../message-bus';
import type { ArgumentSource, DirectHandlerDeclaration } from './bus-handler-declarations';
import { MessageBusContext } from './message-bus.context';

/** Calls the declared method with the envelope and, where it takes one, the context. */
type Invoke = (message: MessageEnvelope<unknown>, context: MessageBusContext | undefined) => unknown;

/**
 * The call of one declaration, fixed at start for the shapes the handlers have (the envelope
 * alone; the envelope and the context), so a message costs no argument array.
 */
function invokerOf({ controller, method, argumentSources }: DirectHandlerDeclaration): Invoke {
  const [first, second] = argumentSources;
  if (argumentSources.length === 1 && first === 'payload') return (message) => method.call(controller, message);
  if (argumentSources.length === 2 && first === 'payload' && second === 'context') return (message, context) => method.call(controller, message, context);
  const valueOf = (source: ArgumentSource, message: MessageEnvelope<unknown>, context: MessageBusContext | undefined) =>
    source === 'payload' ? message : source === 'context' ? context : undefined;
  return (message, context) => method.apply(controller, argumentSources.map((source) => valueOf(source, message, context)));
}

/** Nest's reading of a handler's value: the last value of an Observable (undefined if it completes empty), else the value. */
function lastValueOf(value: unknown): unknown {
  return isObservable(value) ? lastValueFrom(value, { defaultValue: undefined }) : value;
}

/**
 * What the bus gets from one call: the handler's value as Nest's pipeline would make it (a
 * promise's value, an Observable's last value), and a synchronous throw as a rejection, so
 * the bus sees every error as the handler threw it, the same object, as
 * `MessageBusExceptionFilter` hands it on in Nest's pipeline.
 */
function settle(invoke: Invoke, message: MessageEnvelope<unknown>, context: MessageBusContext | undefined): Promise<unknown> {
  let result: unknown;
  try {
    result = invoke(message, context);
  } catch (error) {
    return Promise.reject(error);
  }
  if (result instanceof Promise) return result.then(lastValueOf);
  return Promise.resolve(lastValueOf(result));
}

/**
 * A request handler for `bus.handle`: the controller's method called directly. A method that
 * takes `@Ctx()` gets a `MessageBusContext` of the topic and the request's `RpcContext` (its
 * signal); a bus or test double that calls without one gives a context whose signal never aborts.
 */
export function directRequestHandler(declaration: DirectHandlerDeclaration): (message: MessageEnvelope<unknown>, context?: RpcContext) => Promise<unknown> {
  const invoke = invokerOf(declaration);
  const { topic } = declaration;
  if (!declaration.argumentSources.includes('context')) return (message) => settle(invoke, message, undefined);
  return (message, context) => settle(invoke, message, new MessageBusContext([topic, context]));
}

/**
 * An event handler for `bus.subscribe`: the controller's method called directly; its rejection
 * makes the bus deliver the event again. An event's context (its topic, a signal that never
 * aborts) is the same for every event, so it is made once.
 */
export function directEventHandler(declaration: DirectHandlerDeclaration): (message: MessageEnvelope<unknown>) => Promise<void> {
  const invoke = invokerOf(declaration);
  const context = declaration.argumentSources.includes('context') ? new MessageBusContext([declaration.topic]) : undefined;
  return (message) => settle(invoke, message, context).then(nothing);
}

function nothing(): void {
  // An event handler's value is not anyone's answer.
}
