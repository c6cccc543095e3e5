import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { EventTopics, WAREHOUSE_FEED_TOPICS } from '@ringfence/contracts';
import { type BrowserCardCipher, encryptCardLikeABrowser } from '../../libs/services/gateway/src/card-ciphers/browser-card-cipher.test-support';
import { uniqueCardNumber } from '../support/card-numbers';
import { type CapturedLogs, captureLogs } from '../support/captured-logs';
import { type EmbeddedService, TEST_ADMIN_KEY, TEST_BOOTSTRAP_KEY, startEmbeddedService } from '../support/embedded-service';
import { pspTransactionRequest } from '../support/payload-factories';

/** Every regular file under `dir`. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    const stat = statSync(path);
    return stat.isDirectory() ? filesUnder(path) : stat.isFile() ? [path] : [];
  });
}

/** The files under `dir` holding `needle`, read as bytes. */
function filesHolding(dir: string, needle: string): string[] {
  const bytes = Buffer.from(needle, 'utf8');
  return filesUnder(dir).filter((path) => readFileSync(path).includes(bytes));
}

/**
 * ADR-0015, card encryption: a cipher made as a browser makes it is opened at the gateway, the
 * checkpoint answers, the stored records show the BIN and the last four digits, and neither the
 * card number nor any ciphertext is in the data directory (PGlite, the LMDB event log), the logs
 * or the warehouse feed.
 */
describe('encrypted cards (paymentMethodCipher)', () => {
  let service: EmbeddedService;
  let logs: CapturedLogs;
  const pan = uniqueCardNumber();
  const sentCiphertexts: string[] = [];
  const auth = { apiKey: TEST_BOOTSTRAP_KEY };

  beforeAll(async () => {
    service = await startEmbeddedService();
    logs = captureLogs(service);
  }, 60_000);

  afterAll(async () => {
    await service?.close().catch(() => undefined);
  });

  async function cipher(card: { pan: string; month: number; year: number; nameOnCard?: string } = { pan, month: 7, year: 2031, nameOnCard: 'ADA CIPHER' }): Promise<BrowserCardCipher> {
    const keys = await service.client.send<{ data: Array<{ keyIndex: number; publicKey: string; current: boolean }> }>({ path: '/v2/account/encryption-keys', ...auth });
    const current = keys.body.data.find((key) => key.current);
    if (!current) throw new Error('no current key');
    const made = await encryptCardLikeABrowser(current.publicKey, current.keyIndex, card);
    sentCiphertexts.push(made.cardCiphertext, made.aesKeyCiphertext);
    return made;
  }

  it('answers a payout checkpoint with a cipher; the next reads show the card by BIN, last four and its keyed instrumentId', async () => {
    const supplierId = `sup-cipher-${Date.now()}`;
    const body = { timestamp: Date.now(), payout: { payoutId: `pay-${Date.now()}`, amount: 5000, currency: 'GBP' }, supplier: { supplierId }, paymentMethod: { ...(await cipher()), paymentMethodId: 'pm-enc-1' } };

    const answer = await service.client.send<{ status: number; data: { action: string } }>({ method: 'POST', path: '/v2/payout', body, ...auth });
    const feed = await service.client.send<{ events: Array<{ envelope: { payload: { supplier: { supplierId: string }; paymentMethod: unknown } } }> }>({
      path: `/admin/feed/${EventTopics.payoutRequested}?limit=1000`,
      apiKey: TEST_ADMIN_KEY,
    });
    const network = await service.client.send({ path: `/v2/supplier/${supplierId}/network`, ...auth });

    expect(answer.status).toBe(200);
    expect(answer.body.data.action).toMatch(/^(ALLOW|REVIEW|PREVENT)$/);
    const stored = feed.body.events.find((event) => event.envelope.payload.supplier.supplierId === supplierId)?.envelope.payload.paymentMethod as { instrumentId: string };
    expect(stored).toEqual({
      methodType: 'card',
      paymentMethodId: 'pm-enc-1',
      cardBin: pan.slice(0, 8),
      cardLastFour: pan.slice(-4),
      expiryMonth: 7,
      expiryYear: 2031,
      nameOnCard: 'ADA CIPHER',
      instrumentId: expect.stringMatching(/^card_[A-Za-z0-9_-]{43}$/),
    });
    // The graph's card node is the keyed instrumentId.
    expect(JSON.stringify(network.body)).toContain(`"card:instrument:${stored.instrumentId}"`);
  });

  it('answers a PSP transaction checkpoint and a connect with ciphers, linking the same card to both customers', async () => {
    const transaction = pspTransactionRequest({ paymentMethod: await cipher() });
    const customerId = (transaction.customer as { customerId: string }).customerId;
    const connectCustomer = `cus-cipher-${Date.now()}`;

    const checkpoint = await service.client.send<{ data: { action: string } }>({ method: 'POST', path: '/psp/transaction?checkpoint=pspBeforeAuth', body: transaction, ...auth });
    const connect = await service.client.send({ method: 'POST', path: '/v2/connect', body: { timestamp: Date.now(), customerId: connectCustomer, paymentMethods: [{ card: await cipher() }] }, ...auth });
    const network = await service.client.send<{ data: { nodes: Array<{ id?: string; kind?: string }> } }>({ path: `/v2/customer/${customerId}/network?depth=3`, ...auth });

    expect([checkpoint.status, connect.status]).toEqual([200, 200]);
    expect(JSON.stringify(network.body)).toContain(connectCustomer);
    expect(JSON.stringify(network.body)).not.toContain(pan);
  });

  it('refuses a cipher whose number fails Luhn with 400 naming the field, echoing nothing of it', async () => {
    const bad = `${pan.slice(0, -1)}${(Number(pan.at(-1)) + 1) % 10}`;
    const body = { timestamp: Date.now(), payout: { payoutId: 'pay-bad' }, supplier: { supplierId: 'sup-bad' }, paymentMethods: [await cipher({ pan: bad, month: 1, year: 2030 })] };

    const answer = await service.client.send<{ status: number; message: string; traceId: string }>({ method: 'POST', path: '/v2/payout', body, ...auth });

    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe('paymentMethods.0.cardCiphertext: pan fails the Luhn check');
    expect(JSON.stringify(answer.body)).not.toContain(bad.slice(0, 8));
    expect(JSON.stringify(answer.body)).not.toContain(body.paymentMethods[0]?.cardCiphertext.slice(0, 24));
  });

  it('rotates the key pair: the new key is current, a cipher of the old one still opens', async () => {
    const old = await cipher();
    const rotated = await service.client.send<{ data: { keyIndex: number } }>({ method: 'POST', path: '/v2/account/encryption-keys', ...auth });
    const body = { timestamp: Date.now(), payout: { payoutId: `pay-rot-${Date.now()}` }, supplier: { supplierId: 'sup-rot' }, paymentMethod: old };

    const answer = await service.client.send({ method: 'POST', path: '/v2/payout', body, ...auth });

    expect(rotated.status).toBe(200);
    expect(rotated.body.data.keyIndex).toBe(old.keyIndex + 1);
    expect(answer.status).toBe(200);
    expect((await cipher()).keyIndex).toBe(rotated.body.data.keyIndex);
  });

  it('puts neither the card number nor a ciphertext on the warehouse feed, in the logs or in any file under DATA_DIR', async () => {
    const feed: string[] = [];
    for (const topic of WAREHOUSE_FEED_TOPICS) {
      const page = await service.client.send({ path: `/admin/feed/${topic}?limit=1000`, apiKey: TEST_ADMIN_KEY });
      expect(page.status).toBe(200);
      feed.push(JSON.stringify(page.body));
    }
    const feedText = feed.join('\n');
    await service.close();
    const secrets = [pan, ...sentCiphertexts];

    // Not vacuous: the card's BIN is on the feed, the logs hold the requests, and the files hold the stored card.
    expect(feedText).toContain(pan.slice(0, 8));
    expect(logs.text).toContain('/v2/payout');
    expect(filesHolding(service.dataDir, pan.slice(0, 8)).length).toBeGreaterThan(0);
    for (const secret of secrets) {
      expect(feedText).not.toContain(secret);
      expect(logs.text).not.toContain(secret);
      expect(filesHolding(service.dataDir, secret)).toEqual([]);
    }
  }, 60_000);
});
