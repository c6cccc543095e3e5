import { type EmbeddedService, TEST_ADMIN_KEY, startEmbeddedService } from '../support/embedded-service';
import { customerRequest, pspTransactionRequest } from '../support/payload-factories';

type Account = { accountId: string; keys: { secretTest: string } };
type SearchResult = { subjectType: string; subjectId: string; matched: { kind: string; value: string }; name?: string; email?: string; label?: string | null };
type SearchAnswer = { status: number; data: { results: SearchResult[] } };

let sequence = 0;
const newId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(sequence += 1)}`;

/**
 * The analyst's search, a customer's evidence and the network's shared attributes and path to a
 * fraudster (ADR-0014), through the embedded app over HTTPS: each asserted on the request right
 * after the writes (read your writes), and never across accounts.
 */
describe('search, evidence and network for analysts (embedded app over HTTPS)', () => {
  let service: EmbeddedService;
  let account: Account;
  let other: Account;

  beforeAll(async () => {
    service = await startEmbeddedService();
    [account, other] = await Promise.all([createAccount(), createAccount()]);
  }, 60_000);

  afterAll(async () => {
    await service?.close();
  });

  async function createAccount(): Promise<Account> {
    const created = await service.client.send<Account>({ method: 'POST', path: '/admin/accounts', body: { name: newId('search') }, apiKey: TEST_ADMIN_KEY });
    expect(created.status).toBe(201);
    return created.body;
  }

  const post = (path: string, body: unknown, apiKey = account.keys.secretTest) => service.client.send<Record<string, unknown>>({ method: 'POST', path, body, apiKey });
  const get = <T>(path: string, apiKey = account.keys.secretTest) => service.client.send<T>({ path, apiKey });
  const search = (q: string, extra = '', apiKey?: string) => get<SearchAnswer>(`/v2/search?q=${encodeURIComponent(q)}${extra}`, apiKey);
  const found = (answer: { body: SearchAnswer }) => answer.body.data.results.map((result) => result.subjectId).sort();

  /** Ada pays with a card from a device and IP; Eve, labelled FRAUDSTER, shares Ada's e-mail (written with capitals). */
  async function adaPaysAndEveSharesHerEmail() {
    const [ada, eve, device, instrument] = [newId('ada'), newId('eve'), newId('dev'), newId('ins')];
    const email = `${ada}@example.com`;
    const phone = `+4477009${String(sequence).padStart(5, '0')}`;
    const ip = `198.51.100.${sequence % 250}`;
    const lastFour = String(1000 + (sequence % 9000));
    expect((await post('/v2/customer', customerRequest({ customer: { customerId: ada, email, telephone: phone, name: 'Ada Lovelace' } }))).status).toBe(200);
    const payment = pspTransactionRequest({
      customer: { customerId: ada, email },
      device: { deviceId: device, ipAddress: ip, userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0' },
      paymentMethod: { methodType: 'card', instrumentId: instrument, iin: '411111', lastFour, countryIssued: 'GBR' },
      transaction: { amount: 4250, currency: 'EUR', success: false, declineCode: 'insufficient_funds' },
    });
    expect((await post('/psp/transaction?checkpoint=pspBeforeAuth', payment)).status).toBe(200);
    expect((await post('/v2/customer', customerRequest({ customer: { customerId: eve, email: email.toUpperCase(), telephone: '+447700900001', name: 'Eve' } }))).status).toBe(200);
    expect((await post(`/v2/customer/${encodeURIComponent(eve)}/labels`, { category: 'PAYMENT_FRAUD', review: 'FRAUDSTER' })).status).toBe(200);
    return { ada, eve, device, instrument, email, phone, ip, lastFour, transactionId: payment.transaction.transactionId };
  }

  describe('GET /v2/search', () => {
    it('finds a customer by every attribute on the next request, and both customers sharing an e-mail', async () => {
      const { ada, eve, device, instrument, email, phone, ip, lastFour } = await adaPaysAndEveSharesHerEmail();

      const byEmail = await search(email.toUpperCase());
      expect(byEmail.status).toBe(200);
      expect(found(byEmail)).toEqual([ada, eve].sort());
      expect(byEmail.body.data.results).toContainEqual({ subjectType: 'customer', subjectId: eve, matched: { kind: 'email', value: email }, name: 'Eve', email: email.toUpperCase(), label: 'FRAUDSTER' });
      expect(byEmail.body.data.results).toContainEqual(expect.objectContaining({ subjectId: ada, name: 'Ada Lovelace', label: null }));

      expect(found(await search(phone))).toEqual([ada]);
      expect((await search(`411111 ${lastFour}`)).body.data.results).toEqual([expect.objectContaining({ subjectId: ada, matched: { kind: 'card', value: `411111…${lastFour}` } })]);
      expect(found(await search(`411111…${lastFour}`, '&kind=card'))).toEqual([ada]);
      expect(found(await search(instrument))).toEqual([ada]);
      expect((await search(ip)).body.data.results).toEqual([expect.objectContaining({ subjectId: ada, matched: { kind: 'ip', value: ip } })]);
      expect((await search(device)).body.data.results).toEqual([expect.objectContaining({ subjectId: ada, matched: { kind: 'device', value: device } })]);
      expect((await search(ada)).body.data.results).toEqual([expect.objectContaining({ subjectId: ada, matched: { kind: 'customerId', value: ada } })]);
      // kind forces one reading: Ada's id is no e-mail.
      expect(found(await search(ada, '&kind=email'))).toEqual([]);
    });

    it('answers a customer found only by its IP address with its current label', async () => {
      const { ada, ip } = await adaPaysAndEveSharesHerEmail();
      expect((await post(`/v2/customer/${encodeURIComponent(ada)}/labels`, { category: 'PAYMENT_FRAUD', review: 'GENUINE' })).status).toBe(200);

      expect((await search(ip)).body.data.results).toEqual([expect.objectContaining({ subjectId: ada, label: 'GENUINE' })]);
    });

    it('finds nothing of another account\'s customers, by any attribute', async () => {
      const { ada, email, phone, ip, lastFour, device } = await adaPaysAndEveSharesHerEmail();

      for (const q of [ada, email, phone, ip, `411111 ${lastFour}`, device]) {
        const answer = await search(q, '', other.keys.secretTest);
        expect(answer.status).toBe(200);
        expect(answer.body.data.results).toEqual([]);
      }
    });

    it('answers 400 naming the parameter for a missing q, an unknown kind or a limit out of range', async () => {
      for (const path of ['/v2/search', '/v2/search?q=a&kind=name', '/v2/search?q=a&limit=0', '/v2/search?q=a&limit=51']) {
        const answer = await get<{ message: string }>(path);
        expect(answer.status).toBe(400);
        expect(answer.body.message).toMatch(/^(q|kind|limit)/);
      }
    });
  });

  describe('GET /v2/customer/:customerId/evidence', () => {
    it('lists the payment with its amount, card, IP, device and decision on the next request, and its dispute', async () => {
      const { ada, device, instrument, ip, lastFour, transactionId, email } = await adaPaysAndEveSharesHerEmail();
      const disputeId = newId('dsp');
      expect((await post('/psp/dispute', { timestamp: Date.now(), dispute: { disputeId, transactionId, amount: 4250, currency: 'EUR', reason: 'fraudulent', stage: 'CHARGEBACK' } })).status).toBe(200);

      const answer = await get<{ status: number; data: Record<string, unknown> & { payments: Array<Record<string, unknown>> } }>(`/v2/customer/${encodeURIComponent(ada)}/evidence`);

      expect(answer.status).toBe(200);
      expect(answer.body.data.customer).toEqual(expect.objectContaining({ id: ada, name: 'Ada Lovelace', email }));
      expect(answer.body.data.payments).toEqual([
        expect.objectContaining({
          transactionId,
          amount: 4250,
          currency: 'EUR',
          success: false,
          declineCode: 'insufficient_funds',
          card: { bin: '411111', last4: lastFour, country: 'GBR', instrumentId: instrument },
          ip: expect.objectContaining({ address: ip }),
          device: { deviceId: device, userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0' },
          decision: expect.objectContaining({ scoreId: expect.any(String), checkpoint: 'pspBeforeAuth' }),
          disputes: [expect.objectContaining({ disputeId, transactionId, status: 'CHARGEBACK', reason: 'fraudulent', forgiven: false, amount: 4250, currency: 'EUR' })],
          review: null,
        }),
      ]);
      // A declined payment is no spend.
      expect(answer.body.data.spend).toEqual({});
      expect(answer.body.data.devices).toEqual([expect.objectContaining({ deviceId: device, count: 1 })]);
      expect(answer.body.data.ips).toEqual([expect.objectContaining({ address: ip, count: 1 })]);
    });

    it("shows the payment's review on the next request, and none once it is withdrawn", async () => {
      const { ada, transactionId } = await adaPaysAndEveSharesHerEmail();
      const reviewOfPayment = async () => (await get<{ data: { payments: Array<{ transactionId: string; review: unknown }> } }>(`/v2/customer/${encodeURIComponent(ada)}/evidence`)).body.data.payments.find((payment) => payment.transactionId === transactionId)?.review;

      expect((await post(`/v2/payments/${encodeURIComponent(transactionId)}/review`, { decision: 'fraud', comment: 'card reported stolen' })).status).toBe(201);
      expect(await reviewOfPayment()).toEqual({ decision: 'fraud', actor: expect.stringMatching(/^key /), at: expect.any(Number), comment: 'card reported stolen' });

      const withdrawn = await service.client.send({ method: 'DELETE', path: `/v2/payments/${encodeURIComponent(transactionId)}/review`, apiKey: account.keys.secretTest });
      expect(withdrawn.status).toBe(200);
      expect(await reviewOfPayment()).toBeNull();
    });

    it('answers 404 for a customer of another account, and for one never seen', async () => {
      const { ada } = await adaPaysAndEveSharesHerEmail();

      expect((await get(`/v2/customer/${encodeURIComponent(ada)}/evidence`, other.keys.secretTest)).status).toBe(404);
      expect((await get(`/v2/customer/${encodeURIComponent(newId('nobody'))}/evidence`)).status).toBe(404);
    });
  });

  describe('GET /v2/customer/:customerId/network', () => {
    type Network = {
      nodes: Array<{ id: string; type: string; value: string; score?: number | null; labels?: Record<string, string>; fraudster?: true }>;
      edges: Array<{ source: string; target: string; attribute: { kind: string; value: string } }>;
      pathToFraudster: string[] | null;
    };

    it('names the shared e-mail on its edges, shows the card as BIN…last4, and follows the path to the fraudster', async () => {
      const { ada, eve, email, instrument, lastFour } = await adaPaysAndEveSharesHerEmail();

      const answer = await get<{ status: number; data: Network }>(`/v2/customer/${encodeURIComponent(ada)}/network`);

      expect(answer.status).toBe(200);
      const { nodes, edges, pathToFraudster } = answer.body.data;
      const emailNode = `email:${email}`;
      expect(edges.filter((edge) => edge.source === emailNode || edge.target === emailNode).map((edge) => edge.attribute)).toEqual([
        { kind: 'email', value: email },
        { kind: 'email', value: email },
      ]);
      expect(edges.find((edge) => edge.target === `card:instrument:${instrument}`)?.attribute).toEqual({ kind: 'card', value: `411111…${lastFour}` });
      expect(pathToFraudster).toEqual([`customer:${ada}`, emailNode, `customer:${eve}`]);
      expect(nodes.find((node) => node.value === eve)).toMatchObject({ fraudster: true, labels: { PAYMENT_FRAUD: 'FRAUDSTER' }, score: expect.any(Number) });
      expect(nodes.find((node) => node.value === ada)).toMatchObject({ labels: {}, score: expect.any(Number) });
    });

    it('draws nothing of them for another account', async () => {
      const { ada } = await adaPaysAndEveSharesHerEmail();

      const answer = await get<{ data: Network }>(`/v2/customer/${encodeURIComponent(ada)}/network`, other.keys.secretTest);

      expect(answer.body.data).toMatchObject({ nodes: [{ id: `customer:${ada}`, score: null, labels: {} }], edges: [], pathToFraudster: null });
    });
  });
});
