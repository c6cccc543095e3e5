import { CALLBACK_URL_RULE } from '@ringfence/accounts';
import { CHECKPOINTS, TIME_ZONE_RULE } from '@ringfence/contracts';
import { validateInput } from '@ringfence/service-runtime';
import { UpdateAccountSettingsRequestDto } from './admin.dto';

const validate = (body: unknown) => validateInput(UpdateAccountSettingsRequestDto, body);

async function problemsOf(body: unknown): Promise<string[]> {
  const outcome = await validate(body);
  if (outcome.ok) throw new Error(`expected ${JSON.stringify(body)} to be refused`);
  return outcome.problems;
}

async function accepted(body: unknown): Promise<Record<string, unknown>> {
  const outcome = await validate(body);
  if (!outcome.ok) throw new Error(outcome.problems.join('; '));
  return JSON.parse(JSON.stringify(outcome.value)) as Record<string, unknown>;
}

describe(`${UpdateAccountSettingsRequestDto.name}: review callbacks`, () => {
  it('accepts an http(s) URL and a secret of 16 characters or more, for either data set (where the URL may reach is checked when it is saved)', async () => {
    await expect(accepted({ callbackUrl: 'https://hooks.merchant.example/ringfence', callbackSecret: 'x'.repeat(16) })).resolves.toEqual({
      callbackUrl: 'https://hooks.merchant.example/ringfence',
      callbackSecret: 'x'.repeat(16),
    });
    await expect(accepted({ testCallbackUrl: 'http://10.20.0.5:4100/hook', testCallbackSecret: 'y'.repeat(16) })).resolves.toEqual({
      testCallbackUrl: 'http://10.20.0.5:4100/hook',
      testCallbackSecret: 'y'.repeat(16),
    });
  });

  it('accepts null for both, which clears them', async () => {
    await expect(accepted({ callbackUrl: null, callbackSecret: null })).resolves.toEqual({ callbackUrl: null, callbackSecret: null });
  });

  it.each([
    ['another scheme', 'ftp://hooks.merchant.example/ringfence'],
    ['no URL', 'hooks.merchant.example'],
    ['credentials', 'https://user:secret@hooks.merchant.example/'],
    ['a number', 42],
  ])('refuses a callbackUrl or testCallbackUrl with %s, naming the field', async (_case, url) => {
    await expect(problemsOf({ callbackUrl: url })).resolves.toEqual([`callbackUrl: ${CALLBACK_URL_RULE}`]);
    await expect(problemsOf({ testCallbackUrl: url })).resolves.toEqual([`testCallbackUrl: ${CALLBACK_URL_RULE}`]);
  });

  it('refuses a secret shorter than 16 characters or not a string, naming the field and never echoing it', async () => {
    const problems = await problemsOf({ callbackSecret: 'short-secret' });

    expect(problems).toEqual([expect.stringMatching(/^callbackSecret: .*16/)]);
    expect(problems.join()).not.toContain('short-secret');
    await expect(problemsOf({ callbackSecret: 1234567890123456 })).resolves.toEqual([expect.stringMatching(/^callbackSecret: /)]);
  });
});

describe(`${UpdateAccountSettingsRequestDto.name}: scoreThresholds`, () => {
  it('accepts integers 0 to 100 with review ≤ prevent for every checkpoint', async () => {
    const scoreThresholds = Object.fromEntries(CHECKPOINTS.map((checkpoint, index) => [checkpoint, { review: index * 10, prevent: index * 10 + 5 }]));

    await expect(accepted({ scoreThresholds })).resolves.toEqual({ scoreThresholds });
    await expect(accepted({ scoreThresholds: { customer: { review: 0, prevent: 0 }, payout: { review: 100, prevent: 100 } } })).resolves.toMatchObject({
      scoreThresholds: { customer: { review: 0, prevent: 0 }, payout: { review: 100, prevent: 100 } },
    });
  });

  it('accepts an empty map and null', async () => {
    await expect(accepted({ scoreThresholds: {} })).resolves.toEqual({ scoreThresholds: {} });
    await expect(accepted({ scoreThresholds: null })).resolves.toEqual({ scoreThresholds: null });
  });

  it('refuses prevent below review, naming the checkpoint field', async () => {
    await expect(problemsOf({ scoreThresholds: { refund: { review: 70, prevent: 60 } } })).resolves.toEqual(['scoreThresholds.refund.prevent: must be at least review']);
  });

  it.each([
    [{ customer: { review: 101, prevent: 101 } }, ['scoreThresholds.customer.review: must be an integer from 0 to 100', 'scoreThresholds.customer.prevent: must be an integer from 0 to 100']],
    [{ payout: { review: -1, prevent: 50 } }, ['scoreThresholds.payout.review: must be an integer from 0 to 100']],
    [{ transaction: { review: 10.5, prevent: 50 } }, ['scoreThresholds.transaction.review: must be an integer from 0 to 100']],
    [{ registration: { review: '10', prevent: 50 } }, ['scoreThresholds.registration.review: must be an integer from 0 to 100']],
    [{ voucherRedemption: { prevent: 50 } }, ['scoreThresholds.voucherRedemption.review: is required']],
    [{ customer: 'high' }, ['scoreThresholds.customer: must be an object']],
  ])('refuses %j naming each failing field', async (scoreThresholds, expected) => {
    await expect(problemsOf({ scoreThresholds })).resolves.toEqual(expected);
  });

  it('refuses a key that is not a checkpoint, rather than dropping a misspelt one silently', async () => {
    await expect(problemsOf({ scoreThresholds: { voucher_redemption: { review: 10, prevent: 20 } } })).resolves.toEqual([
      `scoreThresholds: voucher_redemption is not a checkpoint (${CHECKPOINTS.join(', ')})`,
    ]);
  });

  it('refuses a map that is not an object', async () => {
    await expect(problemsOf({ scoreThresholds: [{ review: 1, prevent: 2 }] })).resolves.toEqual([expect.stringMatching(/^scoreThresholds: must be an object/)]);
  });
});

describe(`${UpdateAccountSettingsRequestDto.name}: timeZone`, () => {
  it('accepts an IANA name as the runtime spells it, and null (UTC)', async () => {
    await expect(accepted({ timeZone: 'America/New_York' })).resolves.toEqual({ timeZone: 'America/New_York' });
    await expect(accepted({ timeZone: 'europe/london' })).resolves.toEqual({ timeZone: 'Europe/London' });
    await expect(accepted({ timeZone: null })).resolves.toEqual({ timeZone: null });
  });

  it.each(['Europe/Atlantis', '+01:00', '', 'UTC '.repeat(20), 3600, false])('refuses %j naming the field, with the other failures of the body', async (timeZone) => {
    await expect(problemsOf({ timeZone, defaultAction: 'MAYBE' })).resolves.toEqual(['defaultAction: must be one of ALLOW, REVIEW, PREVENT', `timeZone: ${TIME_ZONE_RULE}`]);
  });
});
