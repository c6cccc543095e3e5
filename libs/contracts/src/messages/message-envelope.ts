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
  payload: TPayload;
}

/** The partition key: one account's events about one subject are processed in order. */
export function messageKey(envelope: Pick<MessageEnvelope<unknown>, 'accountId' | 'environment' | 'subjectId'>): string {
  return `${envelope.accountId}:${envelope.environment}:${envelope.subjectId}`;
}

/** What travels back on a reply topic. Failures come back as replies, never as silence. */
export type RpcReply<T> =
  | { ok: true; value: T }
  | { ok: false; error: { code: string; status: number; message: string } };

/**
 * A payload exactly as it travels on the wire (and as analysts read it): validated DTO instances
 * become plain JSON, open objects get back the fields the client sent (their `toJSON`), maps
 * become objects. Code that walks a payload generically (ingestion's entity extraction) reads
 * this form, never the class instances.
 */
export function toWireJson<T>(payload: T): Record<string, unknown> {
  return JSON.parse(JSON.stringify(payload)) as Record<string, unknown>;
}
