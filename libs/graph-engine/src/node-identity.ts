import { normaliseEmail, normaliseTelephone } from '@ringfence/lookup';
import type { NodeKind } from './node-kind';

/**
 * The identity strings of ADR-0004's node table. Each helper returns null when the payload
 * carries nothing that identifies a node (the caller then links nothing). Composite identities
 * are JSON arrays behind a prefix, so that no two different inputs can produce the same string.
 */

/** E-mail: trimmed and lower-cased (the same rule as lookup's indicators). */
export function emailIdentity(address: string | undefined | null): string | null {
  if (typeof address !== 'string') return null;
  const email = normaliseEmail(address);
  return email === '' ? null : email;
}

/**
 * Telephone: E.164, read with the payload's `telephoneCountry` (ISO 3166 alpha-3 as payloads
 * carry it, alpha-2, or a calling code), else as written when it is international; a number
 * that cannot be read is kept as its raw digits. It uses lookup's normaliser so that a graph
 * phone node and a lookup indicator agree. A country code that is none of those forms is not an
 * error here (ingestion must not fail on it): the number is then read without a country.
 */
export function phoneIdentity(telephone: string | undefined | null, country?: string | null): string | null {
  if (typeof telephone !== 'string' || telephone.trim() === '') return null;
  let phone: string;
  try {
    phone = normaliseTelephone(telephone, country ?? undefined);
  } catch {
    phone = normaliseTelephone(telephone);
  }
  return phone === '' ? null : phone;
}

export interface VehicleFields {
  vin?: string | null;
  plate?: string | null;
  jurisdictionCountry?: string | null;
  jurisdictionState?: string | null;
}

/** Vehicle: the VIN; without one, jurisdiction country + state + plate (a plate is required). */
export function vehicleIdentity(vehicle: VehicleFields): string | null {
  if (nonEmpty(vehicle.vin)) return `vin:${vehicle.vin}`;
  if (!nonEmpty(vehicle.plate)) return null;
  return `plate:${JSON.stringify([vehicle.jurisdictionCountry ?? '', vehicle.jurisdictionState ?? '', vehicle.plate])}`;
}

export interface IdentificationFields {
  idNumber?: string | null;
  jurisdictionCountry?: string | null;
  jurisdictionState?: string | null;
}

/** National identification: document kind (e.g. `driversLicense`) + country + state + number. */
export function identificationIdentity(documentKind: string, document: IdentificationFields): string | null {
  if (!nonEmpty(document.idNumber)) return null;
  return JSON.stringify([documentKind, document.jurisdictionCountry ?? '', document.jurisdictionState ?? '', document.idNumber]);
}

/**
 * Card: the instrumentId (the same card seen by several customers is one node); without one,
 * the paymentMethodId scoped to its owner, so such a card is never shared.
 */
export function cardIdentity(card: { instrumentId?: string | null; paymentMethodId?: string | null }, owner: { kind: NodeKind; id: string }): string | null {
  if (nonEmpty(card.instrumentId)) return `instrument:${card.instrumentId}`;
  if (!nonEmpty(card.paymentMethodId)) return null;
  return `method:${JSON.stringify([owner.kind, owner.id, card.paymentMethodId])}`;
}

/** Custom node: nodeType + nodeId (the kind, customNode1..5, comes from the account's slots). */
export function customNodeIdentity(nodeType: string, nodeId: string): string {
  return JSON.stringify([nodeType, nodeId]);
}

function nonEmpty(value: string | null | undefined): value is string {
  return typeof value === 'string' && value !== '';
}
