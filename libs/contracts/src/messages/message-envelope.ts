import type { AccountFacts } from './account-facts';

/** The data set a message belongs to: an API key's `_test_` or `_live_` environment. */
export type Environment = 'test' | 'live';

/**
 * Every message on the bus, in both modes, is one of these. The payload type is fixed by the
 * topic (see `EventTopicMap` and `RpcTopicMap`).
 */
export interface MessageEnvelope<TPayload> {
  /** Unique per event; consumers use it to stay idempotent under redelivery. */
  eventId: string;
  accountId: string;
  environment: Environment;
  /** The entity whose events must stay in order (customer or supplier id); part of the key. */
  subjectId: string;
  /** When the service accepted the event, epoch milliseconds. */
  acceptedAt: number;
  /** The HTTP request's trace id, so one request can be followed across services. */
  traceId: string;
  /**
   * On a request, the account it acts for, as the gateway knows it (`AccountFacts`); passed on
   * by a service that asks another on the request's behalf. Never on an event.
   */
  account?: AccountFacts;
  payload: TPayload;
}

/**
 * The envelope as an event carries it: without the account's facts, which are the gateway's to
 * give to the services a request asks, not the warehouse feed's. Both buses publish through
 * this, so a handler that publishes an event from its request's envelope (`...message`) never
 * passes the facts on.
 */
export function withoutAccountFacts<T>(envelope: MessageEnvelope<T>): MessageEnvelope<T> {
  if (envelope.account === undefined) return envelope;
  const { account: _facts, ...event } = envelope;
  return event;
}

/** The partition key: one account's events about one subject are processed in order. */
export function messageKey(envelope: Pick<MessageEnvelope<unknown>, 'accountId' | 'environment' | 'subjectId'>): string {
  return `${envelope.accountId}:${envelope.environment}:${envelope.subjectId}`;
}

/** What travels back on a reply topic. Failures come back as replies, never as silence. */
export type RpcReply<T> =
  | { ok: true; value: T }
  /**
   * `retryAfterSeconds`: a 429's wait (a `RateLimitedError`), for the gateway's `Retry-After`.
   * `unanswered`: what the responder waited for in vain (a service it asked, a consumer group its
   * state comes from), so a degraded answer names it.
   */
  | { ok: false; error: { code: string; status: number; message: string; retryAfterSeconds?: number; unanswered?: string[] } };

/** Each payload's JSON text and wire form, made once: the event log stores the text, and up to five consumers of an event read the form. */
const payloadTexts = new WeakMap<object, string>();
const wireForms = new WeakMap<object, Record<string, unknown>>();

/**
 * A payload's JSON text, as `JSON.stringify` gives it. Made once per payload object: the event
 * log stores it inside the envelope's text (`envelopeText`), `toWireJson` parses it rather than
 * stringifying the payload again, and a consumer that stores the payload whole (scoring's
 * decision records) stores it. The payload must not be written to after its first use here,
 * which holds for every published payload (the bus hands one object to every consumer).
 */
export function payloadText(payload: unknown): string | undefined {
  if (typeof payload !== 'object' || payload === null) return JSON.stringify(payload);
  let text = payloadTexts.get(payload);
  if (text === undefined) {
    text = JSON.stringify(payload);
    payloadTexts.set(payload, text);
  }
  return text;
}

/**
 * An envelope's JSON text, exactly as `JSON.stringify(envelope)` gives it (the same keys in the
 * same order, undefined values left out), with the payload's text made once (`payloadText`): the
 * event log stores this text, and the consumers' `toWireJson` of the same payload then parses
 * the text instead of stringifying the payload a second time.
 */
export function envelopeText(envelope: MessageEnvelope<unknown>): string {
  const members: string[] = [];
  for (const key of Object.keys(envelope) as Array<keyof MessageEnvelope<unknown>>) {
    const value = key === 'payload' ? payloadText(envelope.payload) : JSON.stringify(envelope[key]);
    if (value !== undefined) members.push(`${JSON.stringify(key)}:${value}`);
  }
  return `{${members.join(',')}}`;
}

/**
 * A payload exactly as it travels on the wire (and as analysts read it): validated DTO instances
 * become plain JSON, open objects get back the fields the client sent (their `toJSON`), maps
 * become objects. Code that walks a payload generically (ingestion's entity extraction) reads
 * this form, never the class instances.
 *
 * In the embedded mode every consumer of an event gets the same payload object, so its wire
 * form is made once and shared, frozen: a consumer that wrote to it would change what the others
 * read (it throws instead). Payloads are never written to after they are published (the bus
 * hands one object to every consumer), so neither memo can go stale.
 */
export function toWireJson<T>(payload: T): Record<string, unknown> {
  if (typeof payload !== 'object' || payload === null) return JSON.parse(JSON.stringify(payload)) as Record<string, unknown>;
  let wire = wireForms.get(payload);
  if (wire === undefined) {
    wire = deepFreeze(JSON.parse(payloadText(payload) as string) as Record<string, unknown>);
    wireForms.set(payload, wire);
  }
  return wire;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
