import type { Environment } from '@ringfence/contracts';

/**
 * One RSA key pair of a data set's card encryption (ADR-0015): the SDKs wrap a card's AES key
 * under `publicKey`; the gateway unwraps it with `privateKey`. `keyIndex` counts from 1 per
 * account and data set, and the highest is the current one; older pairs are kept to decrypt
 * ciphers made before a rotation.
 */
export interface CardKeyPairRecord {
  accountId: string;
  environment: Environment;
  keyIndex: number;
  /** Base64 of the DER SubjectPublicKeyInfo (what WebCrypto imports as `spki`). */
  publicKey: string;
  /** PEM PKCS#8. A secret: never logged, published or answered. */
  privateKey: string;
  createdAt: Date;
}

/** The card-encryption secrets of each account and data set. The gateway is its only reader. */
export interface CardKeyRepository {
  /** The data set's key pairs, oldest (lowest `keyIndex`) first. */
  listKeyPairs(accountId: string, environment: Environment): Promise<CardKeyPairRecord[]>;
  /** Stores a pair; false (nothing stored) when its `keyIndex` is already taken in its data set. */
  insertKeyPair(pair: CardKeyPairRecord): Promise<boolean>;
  /**
   * The data set's instrument secret (the key of the card numbers' keyed hash): the stored one,
   * or `candidate`, stored now, when there is none yet. Never changes once stored.
   */
  instrumentSecret(accountId: string, environment: Environment, candidate: string): Promise<string>;
}

export const CARD_KEY_REPOSITORY = Symbol('CardKeyRepository');
