import {
  type ConnectLinkedEvent,
  type CustomerDto,
  type CustomerUpdatedEvent,
  type LegacyChargebackRequestDto,
  type LegacyCheckoutRequestDto,
  type LegacyLoginRequestDto,
  type LegacyOrderRequestDto,
  type LegacyTransactionRequestDto,
  PspCustomerDto,
  type TransactionUpdatedEvent,
} from '@ringfence/contracts';

/*
 * The original service's other v2 paths, each turned into the payload of an existing route of
 * the contracts' payload table (PAYLOAD_ROUTES), so ingestion, the graph and velocity read them
 * with the walkers they already have. Pure: the bodies are validated DTOs whose times are
 * already epoch milliseconds (`normaliseTimestamps`).
 */

/** The event name a mapped payload carries when the merchant sent none, so the feed and rules can tell them apart. */
export const LegacyEventTypes = { order: 'order', login: 'login', tags: 'tags' } as const;

/** The customer a customer event names: the `customer` object, else `{customerId}` (validation requires one). */
function customerOf(body: { customerId?: string; customer?: CustomerDto }): CustomerDto {
  if (body.customer) return body.customer;
  if (body.customerId === undefined) throw new Error('a validated customer event always names its customer');
  return { customerId: body.customerId };
}

const deviceOf = ({ device, deviceId }: { device?: CustomerUpdatedEvent['device']; deviceId?: string }) => ({
  ...(device ? { device } : {}),
  ...(deviceId ? { deviceId } : {}),
});

/** POST /v2/order: the customer placing it, its device, and the order (stored by orderId). */
export function orderCustomerEvent(body: LegacyOrderRequestDto): CustomerUpdatedEvent {
  return { timestamp: body.timestamp, eventType: body.eventType ?? LegacyEventTypes.order, customer: customerOf(body), ...deviceOf(body), order: body.order };
}

/**
 * POST /v2/login: the customer and the device it logged in from (the device, IP address and
 * customer links are what a login tells). The username and mechanism are not kept: a username
 * is not a contact by contract, and credentials belong to the breached-credentials check.
 */
export function loginCustomerEvent(body: LegacyLoginRequestDto): CustomerUpdatedEvent {
  return { timestamp: body.timestamp, eventType: body.eventType ?? LegacyEventTypes.login, customer: customerOf(body), ...deviceOf(body) };
}

/** Tags of a customer as the customer object carries them (`false` removes one). */
export function tagsCustomerEvent(customerId: string, tags: Record<string, boolean>, timestampMs: number): CustomerUpdatedEvent {
  return { timestamp: timestampMs, eventType: LegacyEventTypes.tags, customer: { customerId, tags } };
}

/** `tags` and `tagNames` of a tags request as one map; a name in both keeps the `tags` value. */
export function tagMapOf(body: { tags?: Record<string, boolean>; tagNames?: string[] }): Record<string, boolean> {
  // fromEntries defines own properties: a tag named "__proto__" stays a tag.
  return Object.fromEntries([...(body.tagNames ?? []).map((name): [string, boolean] => [name, true]), ...Object.entries(body.tags ?? {})]);
}

/** The names to remove, as a map setting each false. */
export function removedTagMap(names: readonly string[]): Record<string, boolean> {
  return Object.fromEntries(names.map((name): [string, boolean] => [name, false]));
}

/**
 * POST /v2/transaction: the PSP transaction payload; a top-level `customerId` becomes its
 * customer, and `orderId` the order it pays for.
 */
export function transactionEvent(body: LegacyTransactionRequestDto): TransactionUpdatedEvent {
  const { customerId, orderId, ...transaction } = body;
  return {
    ...transaction,
    ...(customerId !== undefined ? { customer: Object.assign(new PspCustomerDto(), { customerId }) } : {}),
    ...(orderId !== undefined ? { order: { orderId } } : {}),
  };
}

/** POST /v2/checkout: the PSP transaction payload with its order, as sent. */
export function checkoutTransactionEvent(body: LegacyCheckoutRequestDto): TransactionUpdatedEvent {
  return { ...body };
}

/** POST /v2/chargeback: the chargeback linked to its customer, as connect links one. */
export function chargebackConnectEvent(body: LegacyChargebackRequestDto): ConnectLinkedEvent {
  return { timestamp: body.timestamp, ...(body.eventType ? { eventType: body.eventType } : {}), customerId: body.customerId, chargeback: body.chargeback };
}

/** The customer or transaction a payment event's ordering key is (one customer's events stay in order). */
export function transactionSubjectId(event: TransactionUpdatedEvent): string {
  return event.customer?.customerId ?? `transaction:${event.transaction.transactionId}`;
}
