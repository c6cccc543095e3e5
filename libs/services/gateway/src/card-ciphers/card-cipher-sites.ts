import { CARD_CIPHER_METHOD_TYPE } from '@ringfence/contracts';

/*
 * Where a payload carries card ciphers, and how each is replaced by the card it decrypts to
 * (ADR-0015, docs/api.md "Encrypted cards"). A payload is walked whole, whatever its route: a
 * cipher is a payment method whose `methodType` is `paymentMethodCipher`, or any object with a
 * cipher field. One found where no payment method goes is refused, so no ciphertext is ever
 * kept as sent.
 */

/** The field names of each place a card goes: a payout or refund variant, a PSP transaction's `paymentMethod`, connect's `card`. */
export type CardShape = 'variant' | 'psp' | 'connect';

export interface CipherSite {
  /** The cipher object, replaced in place (other references to it, such as a checkpoint's request, see the card). */
  object: Record<string, unknown>;
  /** Its path in the payload (`paymentMethods.0`), for the 400's field names. */
  path: string;
  /** Null where no payment method goes. */
  shape: CardShape | null;
}

/** The card kept of a cipher: never the number. */
export interface ReducedCard {
  cardBin: string;
  cardLastFour: string;
  expiryMonth: number;
  expiryYear: number;
  nameOnCard?: string;
  instrumentId: string;
}

const CIPHER_MARKERS = ['cardCiphertext', 'aesKeyCiphertext'];
/** The cipher's own fields, removed from whatever carried them. */
const CIPHER_FIELDS = ['cardCiphertext', 'aesKeyCiphertext', 'algorithm', 'keyIndex'];
/** Deeper than any payload's payment method; the walk stops there. */
const MAX_DEPTH = 16;

function isCipher(object: Record<string, unknown>): boolean {
  if (object['methodType'] === CARD_CIPHER_METHOD_TYPE) return true;
  for (const field of CIPHER_MARKERS) if (Object.hasOwn(object, field)) return true;
  return false;
}

/**
 * Every cipher of the payload. `pspTopic`: the payload is a PSP transaction's (its
 * `paymentMethod` has the PSP's field names, `iin` and `lastFour`).
 * Every payload of every route is walked, and nearly none carries a cipher: the walk keeps the
 * keys above it on one stack and makes a path only for a cipher it finds.
 */
export function findCipherSites(payload: unknown, pspTopic: boolean): CipherSite[] {
  const sites: CipherSite[] = [];
  const keys: Array<string | number> = [];
  const visit = (value: unknown, parentKey: string, inArray: boolean): void => {
    if (keys.length > MAX_DEPTH || typeof value !== 'object' || value === null) return;
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index += 1) {
        keys.push(index);
        visit(value[index], parentKey, true);
        keys.pop();
      }
      return;
    }
    const object = value as Record<string, unknown>;
    if (isCipher(object)) {
      const path = keys.join('.');
      sites.push({ object, path, shape: shapeAt(path, parentKey, inArray, pspTopic) });
      return;
    }
    for (const key in object) {
      if (!Object.hasOwn(object, key)) continue;
      keys.push(key);
      visit(object[key], key, false);
      keys.pop();
    }
  };
  visit(payload, '', false);
  return sites;
}

function shapeAt(path: string, parentKey: string, inArray: boolean, pspTopic: boolean): CardShape | null {
  if (parentKey === 'card' && !inArray) return 'connect';
  if (parentKey === 'paymentMethod' && !inArray) return pspTopic && path === 'paymentMethod' ? 'psp' : 'variant';
  if (parentKey === 'paymentMethods' && inArray) return 'variant';
  return null;
}

/** Replaces the cipher by its card, in place: the cipher fields go, the card's come. */
export function replaceWithCard(site: CipherSite, card: ReducedCard): void {
  const { object } = site;
  if (site.shape === 'variant') {
    // An open variant until now: only its `paymentMethodId` was validated, so only it is kept.
    const paymentMethodId = object['paymentMethodId'];
    for (const key of Object.keys(object)) delete object[key];
    Object.assign(object, { methodType: 'card', ...(typeof paymentMethodId === 'string' ? { paymentMethodId } : {}), ...card });
    return;
  }
  for (const field of CIPHER_FIELDS) delete object[field];
  delete object['cardBin'];
  delete object['nameOnCard'];
  if (site.shape === 'psp') {
    const { cardBin, cardLastFour, ...rest } = card;
    Object.assign(object, { methodType: 'card', iin: cardBin, lastFour: cardLastFour, ...rest });
  } else {
    delete object['methodType'];
    Object.assign(object, card);
  }
}

/** The validation rules a cipher's own fields must meet before it is opened, naming each failing field. */
export function cipherFieldProblems(site: CipherSite): string[] {
  const field = (name: string) => (site.path === '' ? name : `${site.path}.${name}`);
  if (site.shape === null) return [`${field('cardCiphertext')}: a card cipher is accepted only as a payment method`];
  const problems: string[] = [];
  for (const name of ['cardCiphertext', 'aesKeyCiphertext']) {
    if (typeof site.object[name] !== 'string') problems.push(`${field(name)}: is required with methodType ${CARD_CIPHER_METHOD_TYPE}`);
  }
  if (typeof site.object['keyIndex'] !== 'number') problems.push(`${field('keyIndex')}: is required with methodType ${CARD_CIPHER_METHOD_TYPE}`);
  if (typeof site.object['algorithm'] !== 'string') problems.push(`${field('algorithm')}: is required with methodType ${CARD_CIPHER_METHOD_TYPE}`);
  return problems;
}
