import { createHmac, timingSafeEqual } from 'node:crypto';

/** Epoch milliseconds of the attempt: part of what is signed, so a receiver can refuse old replays. */
export const CALLBACK_TIMESTAMP_HEADER = 'Ringfence-Timestamp';
/** `sha256=<hex HMAC-SHA256 of "<timestamp>.<body>">` keyed with the account's callback secret. */
export const CALLBACK_SIGNATURE_HEADER = 'Ringfence-Signature';
/** The delivery's id, the same on every attempt: what a receiver deduplicates by (delivery is at least once). */
export const CALLBACK_DELIVERY_ID_HEADER = 'Ringfence-Delivery-Id';

/** How far a receiver should let a signed timestamp be from its own clock, by default. */
export const DEFAULT_SIGNATURE_TOLERANCE_MS = 5 * 60_000;

/** The `Ringfence-Signature` value of one attempt (ADR-0013). */
export function callbackSignature(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export interface SignedCallback {
  secret: string;
  /** The `Ringfence-Timestamp` header as received. */
  timestamp: string;
  /** The raw body as received: parsing and serialising it again may change it. */
  body: string;
  /** The `Ringfence-Signature` header as received. */
  signature: string;
}

/**
 * What a receiver does: recompute the signature, compare in constant time, and refuse a
 * timestamp too far from its clock. The reference for docs/api.md's example and for the tests.
 */
export function verifyCallbackSignature(signed: SignedCallback, now = Date.now(), toleranceMs = DEFAULT_SIGNATURE_TOLERANCE_MS): boolean {
  if (!/^[0-9]{1,16}$/.test(signed.timestamp)) return false;
  const timestamp = Number(signed.timestamp);
  if (Math.abs(now - timestamp) > toleranceMs) return false;
  const expected = Buffer.from(callbackSignature(signed.secret, timestamp, signed.body));
  const received = Buffer.from(signed.signature);
  return received.length === expected.length && timingSafeEqual(received, expected);
}
