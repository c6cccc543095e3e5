import { Inject, Injectable } from '@nestjs/common';
import { CARD_KEY_REPOSITORY, type CardKeyPairRecord, type CardKeyRepository } from '@ringfence/accounts';
import { CARD_CIPHER_ALGORITHM_NAME, type Environment } from '@ringfence/contracts';
import { type KeyObject, createPrivateKey, generateKeyPair, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';

const generateRsaKeyPair = promisify(generateKeyPair);

/** RSA-2048: what every browser's WebCrypto and mobile platform imports; rotation moves to a new pair. */
export const CARD_KEY_MODULUS_BITS = 2048;
/** How long another process's rotation may go unseen here: the old key still decrypts meanwhile. */
const KEY_LIST_TTL_MS = 60_000;
/** Data sets whose keys are held at once; the least recently loaded goes first. */
const MAX_HELD_DATA_SETS = 10_000;
/** Tries of a new index when other processes take the same one at the same moment. */
const INSERT_ATTEMPTS = 5;

/** A public key as the SDKs receive it (`GET /v2/client/encryption-key`). */
export interface CardPublicKey {
  keyIndex: number;
  algorithm: typeof CARD_CIPHER_ALGORITHM_NAME;
  /** Base64 of the DER SubjectPublicKeyInfo: `crypto.subtle.importKey('spki', bytes, {name: 'RSA-OAEP', hash: 'SHA-256'}, …)`. */
  publicKey: string;
}

export interface ListedCardPublicKey extends CardPublicKey {
  createdAt: Date;
  /** The one the SDKs are given; the others only decrypt. */
  current: boolean;
}

interface HeldKeys {
  loadedAt: number;
  pairs: CardKeyPairRecord[];
}

/**
 * The card-encryption key pairs of each account and data set (ADR-0015): made here with
 * `generateKeyPair` on first need (a data set's first `currentPublicKey`), rotated by
 * `rotate` (a new pair with the next `keyIndex` becomes current), never deleted, so a cipher made
 * under an older key still decrypts. The private keys stay in this process and the gateway's
 * table (`card_key_pairs`, stored as PEM PKCS#8: the project has no at-rest encryption of its own
 * secrets; see docs/security.md); nothing answers or logs them. It is what the client route's
 * `CLIENT_ENCRYPTION_KEYS` port gives.
 */
@Injectable()
export class CardEncryptionKeys {
  private readonly held = new Map<string, HeldKeys>();
  private readonly loading = new Map<string, Promise<CardKeyPairRecord[]>>();
  private readonly privateKeys = new WeakMap<CardKeyPairRecord, KeyObject>();
  private readonly secrets = new Map<string, Promise<Buffer>>();
  /** A data set's first pair while it is made: requests that ask together share it. */
  private readonly firstPairs = new Map<string, Promise<CardKeyPairRecord>>();

  constructor(@Inject(CARD_KEY_REPOSITORY) private readonly repository: CardKeyRepository) {}

  /** The current public key, made with the data set's first pair when it has none. */
  async currentPublicKey(accountId: string, environment: Environment): Promise<CardPublicKey> {
    const pairs = await this.pairs(accountId, environment);
    const current = pairs.at(-1) ?? (await this.firstPair(accountId, environment));
    return publicKeyOf(current);
  }

  private firstPair(accountId: string, environment: Environment): Promise<CardKeyPairRecord> {
    const slot = dataSetKey(accountId, environment);
    let pair = this.firstPairs.get(slot);
    if (pair === undefined) {
      pair = this.addPair(accountId, environment, 1).finally(() => this.firstPairs.delete(slot));
      this.firstPairs.set(slot, pair);
    }
    return pair;
  }

  /** A new pair, current from now on; the earlier ones stay to decrypt. */
  async rotate(accountId: string, environment: Environment): Promise<CardPublicKey> {
    const pairs = await this.pairs(accountId, environment, { fresh: true });
    return publicKeyOf(await this.addPair(accountId, environment, (pairs.at(-1)?.keyIndex ?? 0) + 1));
  }

  /** Every public key of the data set, oldest first. */
  async list(accountId: string, environment: Environment): Promise<ListedCardPublicKey[]> {
    const pairs = await this.pairs(accountId, environment, { fresh: true });
    return pairs.map((pair, index) => ({ ...publicKeyOf(pair), createdAt: pair.createdAt, current: index === pairs.length - 1 }));
  }

  /** The private key `keyIndex` of the data set, or null when it has none of that index. */
  async privateKey(accountId: string, environment: Environment, keyIndex: number): Promise<KeyObject | null> {
    let pair = (await this.pairs(accountId, environment)).find((candidate) => candidate.keyIndex === keyIndex);
    // A pair made by another process since this one last read them.
    pair ??= (await this.pairs(accountId, environment, { fresh: true })).find((candidate) => candidate.keyIndex === keyIndex);
    if (pair === undefined) return null;
    let key = this.privateKeys.get(pair);
    if (key === undefined) {
      key = createPrivateKey(pair.privateKey);
      this.privateKeys.set(pair, key);
    }
    return key;
  }

  /** The key of the data set's keyed hash of card numbers, made and stored on first need. */
  instrumentSecret(accountId: string, environment: Environment): Promise<Buffer> {
    const slot = dataSetKey(accountId, environment);
    let secret = this.secrets.get(slot);
    if (secret === undefined) {
      secret = this.repository.instrumentSecret(accountId, environment, randomBytes(32).toString('base64')).then((stored) => Buffer.from(stored, 'base64'));
      secret.catch(() => this.secrets.delete(slot));
      this.secrets.set(slot, secret);
    }
    return secret;
  }

  private async pairs(accountId: string, environment: Environment, { fresh = false } = {}): Promise<CardKeyPairRecord[]> {
    const slot = dataSetKey(accountId, environment);
    const held = this.held.get(slot);
    if (!fresh && held !== undefined && Date.now() - held.loadedAt < KEY_LIST_TTL_MS) return held.pairs;
    let load = this.loading.get(slot);
    if (load === undefined) {
      load = this.repository.listKeyPairs(accountId, environment).finally(() => this.loading.delete(slot));
      this.loading.set(slot, load);
    }
    const pairs = await load;
    this.hold(slot, pairs);
    return pairs;
  }

  private hold(slot: string, pairs: CardKeyPairRecord[]): void {
    this.held.delete(slot);
    this.held.set(slot, { loadedAt: Date.now(), pairs });
    if (this.held.size > MAX_HELD_DATA_SETS) this.held.delete(this.held.keys().next().value as string);
  }

  /** Makes and stores a pair at `keyIndex`, or at the next free index when another process took it. */
  private async addPair(accountId: string, environment: Environment, keyIndex: number): Promise<CardKeyPairRecord> {
    const { publicKey, privateKey } = await generateRsaKeyPair('rsa', {
      modulusLength: CARD_KEY_MODULUS_BITS,
      publicKeyEncoding: { type: 'spki', format: 'der' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    let index = keyIndex;
    for (let attempt = 0; attempt < INSERT_ATTEMPTS; attempt += 1) {
      const pair: CardKeyPairRecord = { accountId, environment, keyIndex: index, publicKey: publicKey.toString('base64'), privateKey, createdAt: new Date() };
      if (await this.repository.insertKeyPair(pair)) {
        const pairs = await this.pairs(accountId, environment, { fresh: true });
        return pairs.find((candidate) => candidate.keyIndex === index) ?? pair;
      }
      const taken = await this.pairs(accountId, environment, { fresh: true });
      // A first pair made at the same moment elsewhere is as good as ours: use it.
      if (keyIndex === 1 && taken.length > 0) return taken.at(-1) as CardKeyPairRecord;
      index = (taken.at(-1)?.keyIndex ?? index) + 1;
    }
    throw new Error(`no free key index for a card key pair of account ${accountId} (${environment}) after ${INSERT_ATTEMPTS} attempts`);
  }
}

function publicKeyOf(pair: CardKeyPairRecord): CardPublicKey {
  return { keyIndex: pair.keyIndex, algorithm: CARD_CIPHER_ALGORITHM_NAME, publicKey: pair.publicKey };
}

function dataSetKey(accountId: string, environment: Environment): string {
  return `${environment}:${accountId}`;
}
