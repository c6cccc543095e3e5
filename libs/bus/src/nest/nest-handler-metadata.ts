/**
 * What Nest's public decorators (`@MessagePattern`, `@EventPattern`, `@Payload`, `@Ctx`,
 * `@UseGuards`, `@UsePipes`, `@UseInterceptors`, `@UseFilters`) record on a controller, read back
 * with `Reflect.getMetadata` as Nest's own listener and context creators read it. The keys are
 * the values of `@nestjs/microservices`' and `@nestjs/common`'s `constants` modules (11.x), which
 * neither package exports from its index, so they are not imported from there. A later Nest that
 * records them differently cannot drop a handler silently: `MessageBusServer` checks at start
 * that what is read here names the very handlers Nest hands the transporter (`addHandler`).
 */
const PATTERN_METADATA = 'microservices:pattern';
const PATTERN_HANDLER_METADATA = 'microservices:handler_type';
const TRANSPORT_METADATA = 'microservices:transport';
const PATTERN_EXTRAS_METADATA = 'microservices:pattern_extras';
const ROUTE_ARGS_METADATA = '__routeArguments__';
const CUSTOM_ROUTE_ARGS_METADATA = '__customRouteArgs__';

/** Nest's `PatternHandler` enum: 1 for `@MessagePattern`, 2 for `@EventPattern`. */
const MESSAGE_HANDLER = 1;
const EVENT_HANDLER = 2;

/** Nest's `RpcParamtype` enum: `@Payload()` is 3, `@Ctx()` is 6. */
const PAYLOAD_PARAMETER = '3';
const CONTEXT_PARAMETER = '6';

/** The enhancers Nest runs around a handler, by the key their decorator records them under. */
export const ENHANCER_KINDS = {
  guard: '__guards__',
  interceptor: '__interceptors__',
  pipe: '__pipes__',
  filter: '__exceptionFilters__',
} as const;

export type EnhancerKind = keyof typeof ENHANCER_KINDS;

export interface PatternMetadata {
  kind: 'request' | 'event';
  patterns: readonly unknown[];
  /** The transport the pattern is meant for, when it names one (`@EventPattern(topic, transport, extras)`). */
  transport: unknown;
  extras: Record<string, unknown>;
}

/** One decorated parameter: `@Payload()` or `@Ctx()`, or anything else Nest resolves per message. */
export interface ParameterMetadata {
  index: number;
  source: 'payload' | 'context' | 'other';
  /** `@Payload('property')`'s property; a custom decorator's data. */
  data: unknown;
  pipes: readonly unknown[];
  /** How Nest keys it (`<paramtype>:<index>`), to name it in a refusal. */
  key: string;
}

type Method = (...args: never[]) => unknown;

/** A method's `@MessagePattern`/`@EventPattern` declaration, or undefined for any other method. */
export function patternMetadataOf(method: Method): PatternMetadata | undefined {
  const handlerType: unknown = Reflect.getMetadata(PATTERN_HANDLER_METADATA, method);
  if (handlerType !== MESSAGE_HANDLER && handlerType !== EVENT_HANDLER) return undefined;
  return {
    kind: handlerType === MESSAGE_HANDLER ? 'request' : 'event',
    patterns: (Reflect.getMetadata(PATTERN_METADATA, method) as unknown[] | undefined) ?? [],
    transport: Reflect.getMetadata(TRANSPORT_METADATA, method),
    extras: (Reflect.getMetadata(PATTERN_EXTRAS_METADATA, method) as Record<string, unknown> | undefined) ?? {},
  };
}

/**
 * The decorated parameters of a controller's method, or undefined when none is decorated (Nest
 * then passes the payload alone, as the first argument).
 */
export function parameterMetadataOf(controllerClass: object, methodKey: string): ParameterMetadata[] | undefined {
  const declared = Reflect.getMetadata(ROUTE_ARGS_METADATA, controllerClass, methodKey) as
    | Record<string, { index: number; data?: unknown; pipes?: unknown[] }>
    | undefined;
  if (declared === undefined) return undefined;
  return Object.entries(declared).map(([key, { index, data, pipes }]) => ({ index, source: parameterSource(key), data, pipes: pipes ?? [], key }));
}

function parameterSource(key: string): ParameterMetadata['source'] {
  if (key.includes(CUSTOM_ROUTE_ARGS_METADATA)) return 'other';
  const [paramtype] = key.split(':');
  if (paramtype === PAYLOAD_PARAMETER) return 'payload';
  if (paramtype === CONTEXT_PARAMETER) return 'context';
  return 'other';
}

/** The enhancers of one kind bound to the controller class (inherited ones included) and to the method. */
export function enhancersOf(kind: EnhancerKind, controllerClass: object, method: Method): unknown[] {
  const key = ENHANCER_KINDS[kind];
  const onClass = (Reflect.getMetadata(key, controllerClass) as unknown[] | undefined) ?? [];
  const onMethod = (Reflect.getMetadata(key, method) as unknown[] | undefined) ?? [];
  return [...onClass, ...onMethod];
}
