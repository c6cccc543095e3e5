import { isIP } from 'node:net';
import type { SearchKind } from '@ringfence/contracts';

/** One reading of a search text: a kind, and the value as that kind's owner looks it up. */
export interface SearchCandidate {
  kind: SearchKind;
  value: string;
}

// A card as analysts write it: the BIN (6 to 8 digits), a separator (an ellipsis, dots,
// asterisks or x's masking the middle, spaces or dashes), the last four digits.
const CARD = /^([0-9]{6,8})\s*(?:…|\.{2,}|[*xX•]+|[\s-]+)\s*([0-9]{4})$/;
const PHONE = /^\+?[0-9][0-9\s().-]*$/;
const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** A card written as BIN and last four (`411111…1111`, `411111 1111`, `411111******1111`), as `BIN…last4`; null otherwise. */
export function cardValue(text: string): string | null {
  const match = CARD.exec(text);
  return match === null ? null : `${match[1]}…${match[2]}`;
}

/** Seven to fifteen digits (E.164's most), with the punctuation people write phones with. */
function looksLikePhone(text: string): boolean {
  if (!PHONE.test(text)) return false;
  const digits = text.replace(/[^0-9]/g, '').length;
  return digits >= 7 && digits <= 15;
}

/**
 * The readings of a search text (ADR-0014), most specific first: an e-mail looks like one,
 * an IPv4 or IPv6 address like one, a BIN and last four like a card, digits like a phone;
 * any text can also be a customer or supplier id, a device id or a card's instrument id, since
 * ids are the integrator's own strings. `kind` forces one reading. The graph and scoring
 * normalise what they key by (an e-mail lower-cased, a phone as E.164); the values here are
 * the text, trimmed, except a card's (`BIN…last4`) and an IP address's (lower-cased).
 */
export function searchCandidates(query: string, kind?: SearchKind): SearchCandidate[] {
  const text = query.trim();
  if (text === '') return [];
  if (kind !== undefined) {
    const value = kind === 'card' ? cardValue(text) : kind === 'ip' ? text.toLowerCase() : text;
    return value === null ? [] : [{ kind, value }];
  }
  const candidates: SearchCandidate[] = [
    { kind: 'customerId', value: text },
    { kind: 'supplierId', value: text },
  ];
  if (EMAIL.test(text)) candidates.push({ kind: 'email', value: text });
  if (looksLikePhone(text)) candidates.push({ kind: 'phone', value: text });
  const card = cardValue(text);
  if (card !== null) candidates.push({ kind: 'card', value: card });
  if (isIP(text) !== 0) candidates.push({ kind: 'ip', value: text.toLowerCase() });
  candidates.push({ kind: 'instrument', value: text }, { kind: 'device', value: text });
  return candidates;
}
