import { customerRequest } from '../support/payload-factories';
import { type EmbeddedService, TEST_ADMIN_KEY, TEST_BOOTSTRAP_KEY, startEmbeddedService } from '../support/embedded-service';
import type { TestRequest, TestResponse } from '../support/https-client';

type Envelope = { status: number; message: string; timestamp: number; traceId: string };
// Bodies are free-form JSON here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = Record<string, any>;

const RULE = 'must not contain a NUL character or a lone surrogate';
const MEDIA_TYPE_RULE = 'Content-Type: must be application/json';

let sequence = 0;
const unique = (name: string) => `${name}-${Date.now().toString(36)}-${(sequence += 1)}`;
/** Four digits no other test run is likely to use, for national numbers. */
const fourDigits = () => String(Math.floor(Math.random() * 10_000)).padStart(4, '0');

/**
 * Input as integrators send it: free-form e-mails and telephone numbers are accepted and still
 * linked; text PostgreSQL cannot store is refused with a 400 naming where it is, at every route;
 * any body but JSON is a 415.
 */
describe('input handling (embedded, over HTTPS)', () => {
  let service: EmbeddedService;
  let routes: Array<{ method: string; template: string; path: string }>;

  beforeAll(async () => {
    service = await startEmbeddedService({ CUSTOMER_RATE_LIMIT_PER_MINUTE: '1000000', ACCOUNT_RATE_LIMIT_PER_MINUTE: '1000000' });
    const document = (await service.client.send<{ paths: Record<string, Record<string, unknown>> }>({ path: '/openapi.json' })).body;
    routes = Object.entries(document.paths).flatMap(([template, operations]) =>
      Object.keys(operations).map((method) => ({ method: method.toUpperCase(), template, path: template.replace(/\{[^}]+\}/g, 'probe-subject') })),
    );
  }, 60_000);

  afterAll(async () => {
    await service?.close();
  });

  const send = <T = Body>(request: TestRequest) => service.client.send<T>({ apiKey: TEST_BOOTSTRAP_KEY, ...request });
  const post = (path: string, body: unknown) => send({ method: 'POST', path, body });
  const postJsonText = (path: string, rawBody: string) => send({ method: 'POST', path, rawBody, headers: { 'content-type': 'application/json' } });

  /** The status, with the answer's text in the failure when it differs. */
  function expectStatus(response: TestResponse<unknown>, status: number): void {
    if (response.status !== status) throw new Error(`expected ${status}, got ${response.status}: ${response.text.slice(0, 300)}`);
  }

  function expectEnvelope(response: TestResponse<unknown>, status: number): Envelope {
    const body = response.body as Envelope;
    expectStatus(response, status);
    expect(body).toEqual({ status, message: expect.any(String), timestamp: expect.any(Number), traceId: expect.any(String) });
    return body;
  }

  describe('formats the specification does not fix are not enforced', () => {
    it('accepts an e-mail with spaces and capitals and a national telephone number, and links them', async () => {
      const local = unique('ada.byron');
      const digits = fourDigits();
      const first = customerRequest({
        customer: { customerId: unique('cus'), email: `  ${local.toUpperCase()}@Example.COM `, telephone: `020 7946 ${digits}`, telephoneCountry: undefined },
      });
      expectStatus(await post('/v2/customer', first), 200);

      // Another customer with the same address and number written otherwise: the request's own
      // payload is in its answer, so the link to the first customer shows at once.
      const second = unique('cus');
      const linked = await post('/v2/connect?features=true&depth=2', {
        timestamp: Date.now(),
        customer: { customerId: second, email: `${local}@example.com`, telephone: `(020) 7946-${digits}` },
      });
      expect(linked.status).toBe(200);
      // An unparseable national number (no country) links by its digits; the e-mail trimmed and lower-cased.
      expect(linked.body).toMatchObject({ customerID: second, customerCount: 2, emailCount: 1, phoneCount: 1, emailDegreeMax: 2, phoneDegreeMax: 2 });
    });

    it('links a national number read with its country to the same number written internationally', async () => {
      const digits = fourDigits();
      const national = await post('/v2/connect?features=true', {
        timestamp: Date.now(),
        customer: { customerId: unique('cus'), telephone: `020 7946 ${digits}`, telephoneCountry: 'GBR' },
      });
      expect(national.body).toMatchObject({ customerCount: 1, phoneCount: 1 });
      const linked = await post('/v2/connect?features=true&depth=2', {
        timestamp: Date.now(),
        customer: { customerId: unique('cus'), telephone: `+44 20 7946 ${digits}` },
      });
      expect(linked.status).toBe(200);
      expect(linked.body).toMatchObject({ customerCount: 2, phoneCount: 1, phoneDegreeMax: 2 });
    });

    it.each<[string, string, Body]>([
      ['a customer e-mail without an @', '/v2/customer', customerRequest({ customer: { email: 'ada at example dot com', telephone: 'call reception, ext. 12' } })],
      ['a registration customer', '/v2/registration', { timestamp: Date.now(), customer: { customerId: unique('cus'), email: 'Ada Lovelace <ADA@example.com>', telephone: '7946 0958' }, registration: {} }],
      ['a registration supplier', '/v2/registration', { timestamp: Date.now(), supplier: { supplierId: unique('sup'), email: 'ALAN@', telephone: '+44 (0)20 7946 0958' }, registration: {} }],
      ['a supplier', '/v2/supplier', { timestamp: Date.now(), supplier: { supplierId: unique('sup'), email: ' Alan@Couriers ', telephone: '07700 900456' } }],
      ['a connect customer', '/v2/connect', { timestamp: Date.now(), customer: { customerId: unique('cus'), email: 'no-at-sign', telephone: '0' } }],
      ['a label reviewer', `/v2/customer/${unique('cus')}/labels`, { review: 'GENUINE', reviewer: { name: 'Grace', email: 'grace (ops team)' } }],
      ['a lookup e-mail', '/v2/lookup', { timestamp: 1_763_800_000, email: { address: ' Fraud Ster @ Example ' } }],
    ])('accepts %s in any format', async (_case, path, body) => {
      expectStatus(await post(path, body), 200);
    });

    it('reads a lookup e-mail parameter in any format, and still refuses a blank one', async () => {
      expect((await send({ path: `/v2/lookup?email=${encodeURIComponent(' Fraud Ster @ Example ')}` })).status).toBe(200);
      expect(expectEnvelope(await send({ path: '/v2/lookup?email=%20%20' }), 400).message).toBe('email: must not be blank');
    });
  });

  describe('a NUL character or a lone surrogate is a 400 naming the field', () => {
    it('in a body value', async () => {
      const body = customerRequest();
      const { message } = expectEnvelope(await post('/v2/customer', { ...body, customer: { ...body.customer, name: 'Ada\u0000Lovelace' } }), 400);
      expect(message).toBe(`customer.name: ${RULE}`);
    });

    it('in a body value sent as a "\\ud800" escape (a lone surrogate once parsed)', async () => {
      const raw = JSON.stringify(customerRequest({ customer: { name: 'PLACEHOLDER' } })).replace('PLACEHOLDER', 'Ada \\ud800');
      expect(raw).toContain('\\ud800');
      expect(expectEnvelope(await postJsonText('/v2/customer', raw), 400).message).toBe(`customer.name: ${RULE}`);
    });

    it('in a body key, shown escaped', async () => {
      const raw = JSON.stringify(customerRequest({ customer: { PLACEHOLDER: 'x' } })).replace('PLACEHOLDER', 'note\\u0000');
      const { message } = expectEnvelope(await postJsonText('/v2/customer', raw), 400);
      expect(message).toBe(`customer.note\\u0000: ${RULE}`);
      expect(message).not.toContain('\u0000');
    });

    it('in a nested array item, and in an object kept as sent', async () => {
      const raw = JSON.stringify({
        timestamp: Date.now(),
        customer: { customerId: unique('cus') },
        nationalIdentifications: [{ driversLicense: { idNumber: 'ok' } }, { passport: { idNumber: 'LONE_HIGH' } }],
      }).replace('LONE_HIGH', '\\udbff');
      expect(expectEnvelope(await postJsonText('/v2/connect', raw), 400).message).toBe(`nationalIdentifications.1.passport.idNumber: ${RULE}`);

      const psp = { timestamp: Date.now(), transaction: { transactionId: unique('tx') }, flightBooking: { legs: [{ from: 'LHR' }, { to: 'JFK\u0000' }] } };
      expect(expectEnvelope(await post('/psp/transaction', psp), 400).message).toBe(`flightBooking.legs.1.to: ${RULE}`);
    });

    it('lists every failing field at once, in payload order', async () => {
      const raw = JSON.stringify({
        timestamp: Date.now(),
        customer: { customerId: 'c\u0000', name: 'LONE_LOW' },
        device: { deviceId: 'd', userAgent: 'agent\u0000' },
      }).replace('LONE_LOW', '\\udc00');
      expect(expectEnvelope(await postJsonText('/v2/customer', raw), 400).message).toBe(
        [`customer.customerId: ${RULE}`, `customer.name: ${RULE}`, `device.userAgent: ${RULE}`].join('; '),
      );
    });

    it('in a path segment', async () => {
      expect(expectEnvelope(await send({ path: '/v2/customer/cus%00-1/labels' }), 400).message).toBe(`customerId: ${RULE}`);
      expect(expectEnvelope(await post('/v2/supplier/sup%00/labels', { review: 'GENUINE' }), 400).message).toBe(`supplierId: ${RULE}`);
      expect(expectEnvelope(await send({ method: 'DELETE', path: '/admin/keys/key_%00', apiKey: TEST_ADMIN_KEY }), 400).message).toBe(`keyId: ${RULE}`);
      // A surrogate cannot be percent-encoded as UTF-8: that is already a malformed URL.
      expectEnvelope(await send({ path: '/v2/customer/cus%ED%A0%80/labels' }), 400);
      expect((await send({ path: '/v2/lookup?email=a%ED%A0%80' })).status).toBeLessThan(500);
    });

    it('in a query parameter (name or value), and with the body problems in the same answer', async () => {
      expect(expectEnvelope(await send({ path: '/v2/lookup?email=fraud%00@example.com' }), 400).message).toBe(`email: ${RULE}`);
      expect(expectEnvelope(await send({ path: '/v2/lookup?email=a@example.com&telephone=1&telephone=2%00' }), 400).message).toBe(`telephone.1: ${RULE}`);
      expect(expectEnvelope(await send({ path: '/v2/lookup?email=a@example.com&x%00=1' }), 400).message).toBe(`x\\u0000: ${RULE}`);
      const body = { timestamp: Date.now(), transaction: { transactionId: 'tx\u0000' } };
      expect(expectEnvelope(await post('/psp/transaction?checkpoint=pspBeforeAuth%00', body), 400).message).toBe(
        `checkpoint: ${RULE}; transaction.transactionId: ${RULE}`,
      );
    });

    it('at every route: a query parameter, and a body field of every route that takes a body', async () => {
      expect(routes.length).toBeGreaterThan(20);
      for (const route of routes) {
        const query = await send({ method: route.method, path: `${route.path}?probe=%00` });
        expect({ route: `${route.method} ${route.template}`, status: query.status, message: (query.body as Envelope).message }).toEqual({
          route: `${route.method} ${route.template}`,
          status: 400,
          message: `probe: ${RULE}`,
        });
        if (route.method === 'GET' || route.method === 'DELETE') continue;
        const raw = await send({
          method: route.method,
          path: route.path,
          rawBody: JSON.stringify({ timestamp: Date.now(), probe: ['fine', { deeper: 'LONE' }] }).replace('LONE', '\\ud800'),
          headers: { 'content-type': 'application/json' },
        });
        expect({ route: `${route.method} ${route.template}`, status: raw.status, message: (raw.body as Envelope).message }).toEqual({
          route: `${route.method} ${route.template}`,
          status: 400,
          message: `probe.1.deeper: ${RULE}`,
        });
      }
    }, 60_000);
  });

  describe('only JSON bodies', () => {
    const bodyRoutes = () => routes.filter((route) => route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH');

    it.each([
      ['a form-encoded body', 'application/x-www-form-urlencoded', 'timestamp=1763800000&customer%5BcustomerId%5D=cus-1'],
      ['a plain-text body', 'text/plain', '{"timestamp":1763800000,"customer":{"customerId":"cus-1"}}'],
      ['a plain-text body with a charset', 'text/plain; charset=utf-8', '{"timestamp":1763800000}'],
      ['an XML body', 'application/xml', '<customer><customerId>cus-1</customerId></customer>'],
      ['an XML body as text/xml', 'text/xml', '<customer><customerId>cus-1</customerId></customer>'],
      ['a multipart body', 'multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n'],
      ['a body with a malformed Content-Type', 'json', '{"timestamp":1763800000}'],
    ])('answers %s with 415 at every route that takes a body', async (_case, contentType, rawBody) => {
      const routesWithBody = bodyRoutes();
      expect(routesWithBody.map((route) => route.template)).toEqual(expect.arrayContaining(['/v2/customer', '/v2/customer/{customerId}/labels', '/admin/accounts']));
      for (const route of routesWithBody) {
        // The client SDK routes read text/plain as JSON (a beacon's body; test/api/client-sdk-endpoints.spec.ts).
        if (route.template.startsWith('/v2/client/') && contentType.startsWith('text/plain')) continue;
        const response = await send({ method: route.method, path: route.path, rawBody, headers: { 'content-type': contentType } });
        expect({ route: `${route.method} ${route.template}`, status: response.status, message: (response.body as Envelope).message }).toEqual({
          route: `${route.method} ${route.template}`,
          status: 415,
          message: MEDIA_TYPE_RULE,
        });
        expectEnvelope(response, 415);
      }
    }, 60_000);

    it('answers 415 for a body sent without a Content-Type', async () => {
      const response = await send({ method: 'POST', path: '/v2/customer', rawBody: JSON.stringify(customerRequest()) });
      expect(expectEnvelope(response, 415).message).toBe(MEDIA_TYPE_RULE);
    });

    it.each(['application/json', 'application/json; charset=utf-8', 'application/json;charset=UTF-8', 'Application/JSON; Charset=utf-8'])(
      'accepts %s',
      async (contentType) => {
        const request = { timestamp: Date.now(), customer: { customerId: unique('cus'), email: 'Ada@Example.com ' } };
        const response = await send({ method: 'POST', path: '/v2/connect', rawBody: JSON.stringify(request), headers: { 'content-type': contentType } });
        expectStatus(response, 200);
      },
    );

    it('lets a request without a body carry any Content-Type', async () => {
      const response = await send({ method: 'DELETE', path: '/v2/lookup?email=nobody@example.com', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(response.status).toBe(200);
    });
  });
});
