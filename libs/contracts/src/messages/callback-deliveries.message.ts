import { Type } from 'class-transformer';
import { IsDefined, IsInt, IsOptional, IsString, Matches, Min, ValidateNested } from 'class-validator';
import { IsIntegerInRange } from '../http/shared/integer-range';

/** The most deliveries one page of `GET /v2/callbacks/deliveries` holds, and how many by default. */
export const MAX_CALLBACK_DELIVERIES_PAGE = 200;
export const DEFAULT_CALLBACK_DELIVERIES_PAGE = 50;

/** A delivery id as the service makes them (`dlv_` and base62): the `before` cursor. */
export const CALLBACK_DELIVERY_ID_PATTERN = /^dlv_[0-9A-Za-z]{1,64}$/;

/**
 * `ringfence.rpc.labelling.read-callback-deliveries.v1`: a page of the envelope's tenant's
 * review-callback deliveries, newest first.
 */
export class ReadCallbackDeliveriesRequest {
  @IsIntegerInRange(1, MAX_CALLBACK_DELIVERIES_PAGE) limit!: number;
  @IsOptional() @IsString() @Matches(CALLBACK_DELIVERY_ID_PATTERN, { message: 'must be a deliveryId (dlv_…)' }) before?: string;
}

/**
 * Why an attempt got no 2xx, as tenants see it (ADR-0016): a class, never the socket's
 * message (which would make callbacks a port scanner of the operator's network). The receiver's
 * answer (`status`, with `httpStatus`), a failure to reach it (`timeout`, `refused`, `tls`,
 * `address`: an address callbacks may not reach, `dns`, `connection`), the service stopping
 * mid-attempt (`interrupted`), or why nothing was sent (`no-url`: the data set's callbacks were
 * turned off, the delivery is given up; `no-secret`; `not-signed`: the account registry did not
 * answer).
 */
export const CALLBACK_ERROR_CLASSES = ['status', 'timeout', 'refused', 'tls', 'address', 'dns', 'connection', 'interrupted', 'no-url', 'no-secret', 'not-signed'] as const;
export type CallbackErrorClass = (typeof CALLBACK_ERROR_CLASSES)[number];

/** One attempt on the bus (times in epoch milliseconds). */
export class CallbackAttemptMessage {
  at!: number;
  httpStatus!: number | null;
  /** Why no 2xx; null after one. */
  error!: CallbackErrorClass | null;
  durationMs!: number;
}

export class CallbackDeliveryMessage {
  deliveryId!: string;
  /** The body sent, parsed. */
  event!: Record<string, unknown>;
  url!: string;
  status!: 'pending' | 'delivered' | 'failed';
  attempts!: CallbackAttemptMessage[];
  nextAttemptAt!: number | null;
  createdAt!: number;
}

export class ReadCallbackDeliveriesReply {
  /** Newest first. A `before` that names no delivery of the tenant is a VALIDATION_FAILED failure. */
  deliveries!: CallbackDeliveryMessage[];
}

/** What is signed: `<timestamp>.<body>` (ADR-0013). */
export class CallbackSigningMessage {
  /** The attempt's `Ringfence-Timestamp`, epoch milliseconds. */
  @IsInt() @Min(0) timestamp!: number;
  /** The delivery's body, exactly as it is sent. */
  @IsDefined() @IsString() body!: string;
}

/**
 * `ringfence.rpc.gateway.callback-target.v1`, answered by the owner of the account registry
 * (the gateway): where the envelope's account sends its review callbacks now, and, when
 * `signing` is given, that body's signature with the account's callback secret. The secret
 * itself never leaves the gateway (ADR-0013: it is never published on a topic).
 */
export class CallbackTargetRequest {
  @IsOptional() @ValidateNested() @Type(() => CallbackSigningMessage) signing?: CallbackSigningMessage;
}

export class CallbackTargetReply {
  /** null: the account has no callback URL (callbacks are off), or there is no such account. */
  callbackUrl!: string | null;
  /** The `Ringfence-Signature` value; null when no signing was asked, or the account has no secret. */
  signature!: string | null;
}
