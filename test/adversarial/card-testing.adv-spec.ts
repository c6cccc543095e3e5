import { pspTransactionRequest } from '../support/payload-factories';
import { AdversarialServer, type Tenant } from './support/adversarial-server';
import { expectStillDeciding } from './support/still-deciding';

/** The default per-customer limit (CUSTOMER_RATE_LIMIT_PER_MINUTE): the 51st event of a minute is past it. */
const CUSTOMER_LIMIT_PER_MINUTE = 50;
const STRICTNESS: Record<string, number> = { ALLOW: 0, REVIEW: 1, PREVENT: 2 };

type TransactionAnswer = { data?: { action?: string; source?: string } };

/**
 * Issue 32, "Card testing is answered ALLOW": from a customer's 51st event in a minute, a
 * checkpoint answered the account's default action (ALLOW, score 0) without scoring, which is
 * what a card tester wants. ADR-0001: past the limit the answer is the stricter of the
 * customer's last answered action and REVIEW.
 */
describe('attack: card testing past the per-customer rate limit (issue 32)', () => {
  let server: AdversarialServer;
  let attacker: Tenant;
  let victim: Tenant;

  beforeAll(async () => {
    server = await AdversarialServer.start();
    attacker = await server.createTenant('attacker');
    victim = await server.createTenant('victim');
    await expectStillDeciding(server, victim, 'card testing, before the attack', 3);
  }, 90_000);

  afterAll(() => server?.dispose(), 20_000);

  it("answers a customer's 51st and 52nd authorisation of a minute no weaker than REVIEW, and other accounts keep deciding", async () => {
    const customerId = `cus-card-tester-${Date.now().toString(36)}`;
    const answers: Array<{ attempt: number; status: number; action?: string; source?: string }> = [];
    for (let attempt = 1; attempt <= CUSTOMER_LIMIT_PER_MINUTE + 2; attempt += 1) {
      // A new card each time, small amounts: testing which stolen cards work.
      const answer = await server.send<TransactionAnswer>({
        method: 'POST',
        path: '/psp/transaction?checkpoint=pspBeforeAuth',
        body: pspTransactionRequest({
          customer: { customerId },
          transaction: { amount: 100 + attempt },
          paymentMethod: { methodType: 'card', instrumentId: `card-${customerId}-${attempt}`, iin: '411111', lastFour: String(1000 + attempt) },
        }),
        apiKey: attacker.secretLive,
      });
      answers.push({ attempt, status: answer.status, action: answer.body.data?.action, source: answer.body.data?.source });
    }

    await expectStillDeciding(server, victim, 'card testing, after the attack');
    const pastTheLimit = answers.slice(CUSTOMER_LIMIT_PER_MINUTE);
    process.stdout.write(`adversarial: card testing: past the limit ${JSON.stringify(pastTheLimit)}\n`);
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    for (const answer of pastTheLimit) {
      expect({ attempt: answer.attempt, atLeastReview: STRICTNESS[answer.action ?? 'ALLOW'] >= STRICTNESS.REVIEW }).toEqual({ attempt: answer.attempt, atLeastReview: true });
    }
  });
});
