import { customerRequest, pspTransactionRequest } from '../support/payload-factories';
import { AdversarialServer, type Tenant } from './support/adversarial-server';
import { expectDecisionsUsable } from './support/decisions-usable';
import { expectStillDeciding } from './support/still-deciding';

/** 2100-01-01T00:00:00Z in seconds: the first time past the bound of ADR-0016. */
const YEAR_2100_SECONDS = 4_102_444_800;

/**
 * Values that validation used to accept and a writer behind the request could not store, each
 * sent where a client sends it, and the field a 400 must name (ADR-0016, "Values are
 * bounded where they are accepted").
 */
const UNSTORABLE_VALUES: Array<{ what: string; path: string; body: () => object; field: string }> = [
  { what: 'a timestamp of 1e30 (1e24 ms once normalised)', path: '/v2/customer', body: () => customerRequest({ timestamp: 1e30 }), field: 'timestamp' },
  { what: 'a negative timestamp', path: '/v2/customer', body: () => customerRequest({ timestamp: -1e30 }), field: 'timestamp' },
  { what: 'a timestamp at 2100-01-01', path: '/v2/customer', body: () => customerRequest({ timestamp: YEAR_2100_SECONDS }), field: 'timestamp' },
  { what: 'microseconds that normalise past 2100', path: '/v2/customer', body: () => customerRequest({ timestamp: 9.9e16 }), field: 'timestamp' },
  { what: 'a nested time of 1e30', path: '/v2/customer', body: () => customerRequest({ customer: { registrationTime: 1e30 } }), field: 'customer.registrationTime' },
  {
    what: 'a voucher redemption at 1e30',
    path: '/v2/paymentmethod/voucher',
    body: () => ({ timestamp: 1e30, voucherRedemption: { voucherCode: 'WELCOME-25', success: true }, customerId: 'cus-attacker' }),
    field: 'timestamp',
  },
  { what: 'a backfill at 1e30', path: '/v2/backfill/customer', body: () => customerRequest({ timestamp: 1e30 }), field: 'timestamp' },
  { what: 'an amount of 1e300', path: '/psp/transaction?checkpoint=pspBeforeAuth', body: () => pspTransactionRequest({ transaction: { amount: 1e300 } }), field: 'transaction.amount' },
  { what: 'an amount past 2^53 - 1', path: '/psp/transaction', body: () => pspTransactionRequest({ transaction: { amount: 2 ** 53 } }), field: 'transaction.amount' },
];

/**
 * Issue 32, "One accepted value wedges the decisions of every account": a checkpoint whose
 * timestamp is 1e30 was accepted, its decision record then failed to insert on every retry, and
 * no account's decision was recorded after it (not readable by scoreId, backtests 500, trainings
 * failed for lack of examples).
 */
describe('attack: values no writer can store (issue 32)', () => {
  let server: AdversarialServer;
  let attacker: Tenant;
  let victim: Tenant;

  beforeAll(async () => {
    server = await AdversarialServer.start();
    attacker = await server.createTenant('attacker');
    victim = await server.createTenant('victim');
    await expectStillDeciding(server, victim, 'unstorable values, before the attack');
  }, 90_000);

  afterAll(() => server?.dispose(), 20_000);

  it("refuses each with a 400 naming the field; then every account's decisions are recorded, readable, backtestable and trainable", async () => {
    const answers = [];
    for (const { what, path, body, field } of UNSTORABLE_VALUES) {
      const answer = await server.send<{ message?: string }>({ method: 'POST', path, body: body(), apiKey: attacker.secretTest });
      answers.push({ what, status: answer.status, namesTheField: typeof answer.body?.message === 'string' && answer.body.message.includes(`${field}:`) });
    }

    // What the attack did to the others first: that is the harm; the attacker's answers after.
    await expectStillDeciding(server, victim, 'unstorable values, after the attack');
    await expectDecisionsUsable(server, victim);
    await expectDecisionsUsable(server, attacker, attacker.secretTest);
    expect(answers).toEqual(UNSTORABLE_VALUES.map(({ what }) => ({ what, status: 400, namesTheField: true })));
  });
});
