import { type PaymentMethodFacts, type WireObject, payloadFacts } from '@ringfence/contracts';
import type { DeviceSighting } from './device-record';

/**
 * What an ingest payload says of its device, or null when it names none: the device of
 * `deviceId` or `device.deviceId` (`payloadFacts`), its customer, and the cards of its payment
 * methods (by `instrumentId`, else `paymentMethodId`; BIN and last four when sent, as
 * `cardBin`/`cardLastFour` or `iin`/`lastFour`).
 */
export function deviceSightingOf(wire: WireObject): DeviceSighting | null {
  const facts = payloadFacts(wire);
  const deviceId = facts.device.id;
  if (deviceId === undefined) return null;
  const customerId = facts.customerId ?? facts.customer?.id;
  const methods = [facts.paymentMethod, ...facts.paymentMethods, ...facts.connectCards].filter((method): method is PaymentMethodFacts => method !== undefined);
  const cards = methods.flatMap((method) => {
    const card = cardOf(method);
    return card === null ? [] : [card];
  });
  return { deviceId, ...(customerId === undefined ? {} : { customerId }), cards };
}

function cardOf(method: PaymentMethodFacts): DeviceSighting['cards'][number] | null {
  if (method.instrumentId === undefined && method.paymentMethodId === undefined) return null;
  const text = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value : undefined);
  const card: DeviceSighting['cards'][number] = {};
  if (method.instrumentId !== undefined) card.instrumentId = method.instrumentId;
  if (method.paymentMethodId !== undefined) card.paymentMethodId = method.paymentMethodId;
  // The order's card names them `cardBin` and `cardLastFour`, the PSP transaction's `iin` and `lastFour`.
  const cardBin = text(method.fields.cardBin) ?? text(method.fields.iin);
  const cardLastFour = text(method.fields.cardLastFour) ?? text(method.fields.lastFour);
  if (cardBin !== undefined) card.cardBin = cardBin;
  if (cardLastFour !== undefined) card.cardLastFour = cardLastFour;
  return card;
}
