import { Injectable } from '@nestjs/common';
import type { Environment } from '@ringfence/contracts';
import { AppError } from '@ringfence/platform';
import { CardCipherError, cardBinOf, decryptCard, instrumentIdOf, unwrapAesKey } from './card-cipher.crypto';
import { type CipherSite, type ReducedCard, cipherFieldProblems, findCipherSites, replaceWithCard } from './card-cipher-sites';
import { CardEncryptionKeys } from './card-encryption-keys.service';

/** Whose payload it is: the cipher was made under this data set's public key. */
export interface CipherOwner {
  accountId: string;
  environment: Environment;
}

/**
 * The one place card ciphers are opened (ADR-0015): `EventIntake` hands it every payload before
 * publishing it, on every route. Each cipher is decrypted with its data set's private key
 * `keyIndex`, its number checked (Luhn), and the cipher replaced in place by a card with the BIN,
 * the last four digits, the expiry, the name and `instrumentId`, the data set's keyed hash of the
 * number, so the same card is the same node in the graph and a card of another account is not.
 * One cipher that cannot be read makes the request a 400 naming each failing field (nothing is
 * published); the messages name fields, never values.
 */
@Injectable()
export class CardCipherIntake {
  constructor(private readonly keys: CardEncryptionKeys) {}

  /** Opens every cipher of `payload` (and of `also`, a request that shares its objects), or throws a 400. */
  async reduce(owner: CipherOwner, payload: unknown, pspTopic: boolean, also?: unknown): Promise<void> {
    const sites = findCipherSites(payload, pspTopic);
    if (also !== undefined && also !== payload) sites.push(...findCipherSites(also, pspTopic));
    if (sites.length === 0) return;
    const shapeProblems = sites.flatMap(cipherFieldProblems);
    if (shapeProblems.length > 0) throw new AppError('VALIDATION_FAILED', shapeProblems.join('; '));
    const outcomes = await Promise.all(sites.map((site) => this.open(owner, site)));
    const problems = outcomes.filter((outcome): outcome is string => typeof outcome === 'string');
    if (problems.length > 0) throw new AppError('VALIDATION_FAILED', problems.join('; '));
    sites.forEach((site, index) => replaceWithCard(site, outcomes[index] as ReducedCard));
  }

  /** The card of one cipher, or the problem (`path.field: message`) that stops it. */
  private async open(owner: CipherOwner, site: CipherSite): Promise<ReducedCard | string> {
    const field = (name: string) => (site.path === '' ? name : `${site.path}.${name}`);
    const keyIndex = site.object['keyIndex'] as number;
    const privateKey = await this.keys.privateKey(owner.accountId, owner.environment, keyIndex);
    if (privateKey === null) return `${field('keyIndex')}: names no encryption key of this data set (GET /v2/client/encryption-key gives the current one)`;
    try {
      const card = decryptCard(unwrapAesKey(privateKey, site.object['aesKeyCiphertext'] as string), site.object['cardCiphertext'] as string);
      const secret = await this.keys.instrumentSecret(owner.accountId, owner.environment);
      return {
        cardBin: cardBinOf(card.pan),
        cardLastFour: card.pan.slice(-4),
        expiryMonth: card.month,
        expiryYear: card.year,
        ...(card.nameOnCard === undefined ? {} : { nameOnCard: card.nameOnCard }),
        instrumentId: instrumentIdOf(secret, card.pan),
      };
    } catch (error) {
      if (error instanceof CardCipherError) return `${field(error.field)}: ${error.message}`;
      throw error;
    }
  }
}
