import { LOOKUP_INDICATOR_REPOSITORY, type LookupIndicatorRepository } from '@ringfence/lookup';
import { type EmbeddedService, TEST_BOOTSTRAP_KEY, eventually, startEmbeddedService } from '../support/embedded-service';
import { type CapturedLogs, captureLogs } from '../support/captured-logs';

let sequence = 0;
/** Values no other line of the log could hold by chance. */
const uniqueEmail = () => `privacy-${Date.now().toString(36)}-${(sequence += 1)}@example.com`;
const uniquePhone = () => `+4477009${String(10_000 + (sequence += 1)).slice(-5)}`;

/** Every spelling of a value a log line could carry it in: as sent, percent-encoded, or as a form would. */
const spellingsOf = (value: string) => [value, encodeURIComponent(value), new URLSearchParams({ value }).toString().slice('value='.length)];

/**
 * ADR-0016, "Inside the cluster": logs carry no query strings with personal data. The
 * lookup's GET and DELETE take e-mails and phone numbers as query parameters; a failure there is
 * logs.text at error level, and that line, like the access log, names the route and not the URL.
 */
describe('personal data in logs', () => {
  let service: EmbeddedService;
  let repository: LookupIndicatorRepository;
  /** Every line the service logged since it started answering, at trace level. */
  let logs: CapturedLogs;

  beforeAll(async () => {
    service = await startEmbeddedService();
    logs = captureLogs(service);
    repository = service.app.get<LookupIndicatorRepository>(LOOKUP_INDICATOR_REPOSITORY, { strict: false });
  }, 60_000);

  afterAll(async () => {
    jest.restoreAllMocks();
    await service?.close();
  });

  /** The log lines written since `from` that carry this trace id. */
  const linesOf = (from: number, traceId: string) =>
    logs.text
      .slice(from)
      .split('\n')
      .filter((line) => line.includes(traceId));

  /**
   * The request's lines once its access line is written. Asynchronous by design: Fastify writes
   * it when the response has finished, which can be just after the client has read the answer.
   */
  async function accessLogged(from: number, traceId: string): Promise<string[]> {
    const lines = await eventually(async () => {
      const traced = linesOf(from, traceId);
      return traced.some((line) => line.includes('"msg":"request completed"')) ? traced : null;
    }, 2_000);
    return lines;
  }

  it('logs a lookup GET that fails with 500 by its route: no e-mail, no phone number', async () => {
    const email = uniqueEmail();
    const telephone = uniquePhone();
    jest.spyOn(repository, 'summarise').mockRejectedValueOnce(new Error('the indicator store failed'));
    const from = logs.text.length;

    const response = await service.client.send<{ traceId: string }>({
      path: `/v2/lookup?${new URLSearchParams({ email, telephone }).toString()}`,
      apiKey: TEST_BOOTSTRAP_KEY,
    });

    expect(response.status).toBe(500);
    const lines = await accessLogged(from, response.body.traceId);
    // The failure and the access line are both there, with the route: the assertions below are not vacuous.
    expect(lines.join('\n')).toContain('"msg":"request failed"');
    expect(lines.join('\n')).toContain('"msg":"request completed"');
    expect(lines.filter((line) => line.includes('"url"')).every((line) => line.includes('"url":"/v2/lookup"'))).toBe(true);
    for (const value of [...spellingsOf(email), ...spellingsOf(telephone)]) expect(logs.text.slice(from)).not.toContain(value);
  });

  it('logs an answered lookup GET and DELETE by route only', async () => {
    const email = uniqueEmail();
    const from = logs.text.length;

    const read = await service.client.send({ path: `/v2/lookup?email=${encodeURIComponent(email)}`, apiKey: TEST_BOOTSTRAP_KEY });
    const removed = await service.client.send({ method: 'DELETE', path: `/v2/lookup?email=${encodeURIComponent(email)}`, apiKey: TEST_BOOTSTRAP_KEY });

    expect([read.status, removed.status]).toEqual([200, 200]);
    await accessLogged(from, read.headers['x-trace-id'] as string);
    await accessLogged(from, removed.headers['x-trace-id'] as string);
    for (const value of spellingsOf(email)) expect(logs.text.slice(from)).not.toContain(value);
  });

  it('keeps the body of a lookup POST that fails with 500 out of the log', async () => {
    const email = uniqueEmail();
    jest.spyOn(repository, 'add').mockRejectedValueOnce(new Error('the indicator store failed'));
    const from = logs.text.length;

    const response = await service.client.send<{ traceId: string }>({
      method: 'POST',
      path: '/v2/lookup',
      body: { timestamp: 1_763_800_000, email: { address: email }, chargebacks: [{ chargebackId: `cb-${sequence}`, reason: 'FRAUD', amount: 1999, currency: 'GBP', customerId: 'cus-1' }] },
      apiKey: TEST_BOOTSTRAP_KEY,
    });

    expect(response.status).toBe(500);
    expect(linesOf(from, response.body.traceId).join('\n')).toContain('"msg":"request failed"');
    for (const value of spellingsOf(email)) expect(logs.text.slice(from)).not.toContain(value);
  });

  it('logs a path no route matches without its query string', async () => {
    const email = uniqueEmail();
    const from = logs.text.length;

    const response = await service.client.send({ path: `/v2/no-such-route?email=${encodeURIComponent(email)}`, apiKey: TEST_BOOTSTRAP_KEY });

    expect(response.status).toBe(404);
    expect(logs.text.slice(from)).toContain('/v2/no-such-route');
    for (const value of spellingsOf(email)) expect(logs.text.slice(from)).not.toContain(value);
  });

  it('still answers the next lookup of the same values after the failure', async () => {
    const email = uniqueEmail();
    jest.spyOn(repository, 'summarise').mockRejectedValueOnce(new Error('the indicator store failed'));
    expect((await service.client.send({ path: `/v2/lookup?email=${encodeURIComponent(email)}`, apiKey: TEST_BOOTSTRAP_KEY })).status).toBe(500);

    const next = await service.client.send<{ data: Record<string, { known: boolean }> }>({ path: `/v2/lookup?email=${encodeURIComponent(email)}`, apiKey: TEST_BOOTSTRAP_KEY });

    expect(next.status).toBe(200);
    expect(next.body.data.email).toMatchObject({ known: false });
  });
});
