import { MetadataScanner } from '@nestjs/core';
import { MessageBusExceptionFilter } from './message-bus.exception-filter';
import { type EnhancerKind, enhancersOf, type ParameterMetadata, parameterMetadataOf, patternMetadataOf } from './nest-handler-metadata';

/** A controller as Nest's `DiscoveryService.getControllers()` lists it (an `InstanceWrapper`). */
export interface DiscoveredController {
  instance: unknown;
  /** False for a request-scoped controller, or one that depends on a request-scoped provider. */
  isDependencyTreeStatic(): boolean;
}

/** What a handler's argument at one position is: the envelope, the `MessageBusContext`, or nothing (no decorator there). */
export type ArgumentSource = 'payload' | 'context' | 'absent';

export type HandlerMethod = (...args: unknown[]) => unknown;

/** One pattern of one controller method, as the direct dispatch calls it. */
export interface DirectHandlerDeclaration {
  kind: 'request' | 'event';
  topic: string;
  extras: Record<string, unknown>;
  controller: object;
  method: HandlerMethod;
  /** The method's arguments, by position. */
  argumentSources: readonly ArgumentSource[];
  /** `Class.method`, for messages. */
  name: string;
}

/** Nest passes the payload alone to a method none of whose parameters is decorated. */
const UNDECORATED_ARGUMENTS: readonly ArgumentSource[] = ['payload'];

const REFUSED_ENHANCERS: readonly EnhancerKind[] = ['guard', 'interceptor', 'pipe'];

function refusal(name: string, problem: string): Error {
  return new Error(`${name} ${problem}: the in-process bus calls bus handlers directly, without Nest's pipeline, and cannot honour it`);
}

/** A name for a guard, pipe or filter in a refusal: its class name. */
function nameOf(enhancer: unknown): string {
  if (typeof enhancer === 'function') return enhancer.name;
  return (enhancer as object | null)?.constructor?.name ?? String(enhancer);
}

/**
 * Refuses what Nest's pipeline would do per message and a direct call would skip: guards,
 * interceptors and pipes, and any exception filter but `MessageBusExceptionFilter` (which hands
 * errors on as thrown, as the direct call does). A controller without it would answer every
 * error as Nest's generic RPC error, so it is refused too.
 */
function refuseEnhancers(name: string, controllerClass: object, method: HandlerMethod): void {
  for (const kind of REFUSED_ENHANCERS) {
    const bound = enhancersOf(kind, controllerClass, method);
    if (bound.length > 0) throw refusal(name, `has ${kind === 'interceptor' ? 'an' : 'a'} ${kind} (${bound.map(nameOf).join(', ')})`);
  }
  const filters = enhancersOf('filter', controllerClass, method);
  const isBusFilter = (filter: unknown) => filter === MessageBusExceptionFilter || filter instanceof MessageBusExceptionFilter;
  const others = filters.filter((filter) => !isBusFilter(filter));
  if (others.length > 0) throw refusal(name, `has an exception filter other than MessageBusExceptionFilter (${others.map(nameOf).join(', ')})`);
  if (filters.length === 0) {
    throw new Error(`${name} is not on a @MessageBusController(): without MessageBusExceptionFilter its errors would not reach the bus as thrown`);
  }
}

/** The method's arguments by position, refusing a parameter decorator other than a plain `@Payload()` or `@Ctx()`. */
function argumentSourcesOf(name: string, parameters: readonly ParameterMetadata[] | undefined): readonly ArgumentSource[] {
  if (parameters === undefined) return UNDECORATED_ARGUMENTS;
  const sources: ArgumentSource[] = [];
  for (const parameter of parameters) {
    if (parameter.source === 'other') throw refusal(name, `has a parameter decorator other than @Payload() and @Ctx() (${parameter.key})`);
    if (parameter.pipes.length > 0) throw refusal(name, `has a pipe on parameter ${parameter.index} (${parameter.pipes.map(nameOf).join(', ')})`);
    if (parameter.data !== undefined) throw refusal(name, `picks a property of the payload (@Payload(${JSON.stringify(parameter.data)}))`);
    sources[parameter.index] = parameter.source;
  }
  return Array.from(sources, (source) => source ?? 'absent');
}

const METADATA_SCANNER = new MetadataScanner();

/** The methods of a controller, inherited ones included, as Nest's listener explorer finds them. */
function methodsOf(instance: object): Array<[string, HandlerMethod]> {
  const prototype = Object.getPrototypeOf(instance) as Record<string, HandlerMethod>;
  return METADATA_SCANNER.getAllMethodNames(prototype).map((key) => [key, prototype[key]]);
}

/** The patterns of one controller meant for this transport (Nest's rule: no transport named, or this one). */
function declarationsOf(controller: DiscoveredController, transportId: symbol): DirectHandlerDeclaration[] {
  const instance = controller.instance as object;
  const controllerClass = instance.constructor;
  const declarations: DirectHandlerDeclaration[] = [];
  for (const [methodKey, method] of methodsOf(instance)) {
    const pattern = patternMetadataOf(method);
    if (pattern === undefined || (pattern.transport !== undefined && pattern.transport !== transportId)) continue;
    const name = `${controllerClass.name}.${methodKey}`;
    if (!controller.isDependencyTreeStatic()) throw refusal(name, 'is request-scoped (or depends on a request-scoped provider), which needs an instance per message');
    refuseEnhancers(name, controllerClass, method);
    const argumentSources = argumentSourcesOf(name, parameterMetadataOf(controllerClass, methodKey));
    for (const topic of pattern.patterns) {
      if (typeof topic !== 'string') throw new Error(`${name}: a bus pattern is a topic name, not ${JSON.stringify(topic)}`);
      declarations.push({ kind: pattern.kind, topic, extras: pattern.extras, controller: instance, method, argumentSources, name });
    }
  }
  return declarations;
}

/**
 * Every `@MessagePattern`/`@EventPattern` of the app's controllers for the bus transporter, one
 * per topic, each refused at once if the direct call could not do what Nest's pipeline would.
 */
export function declaredBusHandlers(controllers: readonly DiscoveredController[], transportId: symbol): DirectHandlerDeclaration[] {
  return controllers.filter((controller) => controller.instance !== null && typeof controller.instance === 'object').flatMap((controller) => declarationsOf(controller, transportId));
}

/** A handler as Nest registered it with the transporter (`addHandler`). */
export interface NestRegistration {
  kind: 'request' | 'event';
  topic: string;
  extras: Record<string, unknown>;
}

function sameExtras(left: Record<string, unknown>, right: Record<string, unknown>): boolean {
  const keys = Object.keys(left);
  return keys.length === Object.keys(right).length && keys.every((key) => left[key] === right[key]);
}

/**
 * The direct dispatch reads Nest's declarations itself; this holds it to the handlers Nest
 * registered with the transporter, so a difference (a later Nest recording patterns otherwise)
 * stops the start instead of leaving a topic without its handler.
 */
export function checkSameHandlersAsNest(declarations: readonly DirectHandlerDeclaration[], registrations: readonly NestRegistration[]): void {
  const unmatched = [...declarations];
  const missing: string[] = [];
  for (const registration of registrations) {
    const found = unmatched.findIndex(({ kind, topic, extras }) => kind === registration.kind && topic === registration.topic && sameExtras(extras, registration.extras));
    if (found === -1) missing.push(`${registration.kind} ${registration.topic}`);
    else unmatched.splice(found, 1);
  }
  if (missing.length > 0 || unmatched.length > 0) {
    const extra = unmatched.map(({ kind, topic, name }) => `${kind} ${topic} (${name})`);
    throw new Error(`the direct dispatch found other bus handlers than Nest registered: not found ${missing.join(', ') || 'none'}; not registered by Nest ${extra.join(', ') || 'none'}`);
  }
}
