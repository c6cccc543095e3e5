import { OPERATOR_ONLY_SETTINGS, OPERATOR_ONLY_SETTING_RULE, SELF_SERVICE_SETTINGS, SETTING_CHANGED_BY } from '@ringfence/accounts';
import { validateInput } from '@ringfence/service-runtime';
import { getMetadataStorage } from 'class-validator';
import { SelfServiceSettingsRequestDto, UpdateAccountSettingsRequestDto } from '../admin/admin.dto';
import { UpdateOwnAccountSettingsRequestDto } from './account.dto';

type Outcome = { ok: true; value: unknown } | { ok: false; problems: string[] };

async function outcomeOf(dto: new () => object, body: unknown): Promise<Outcome> {
  // validateInput reads its input in place: each DTO gets its own copy of the body.
  const outcome = validateInput(dto, JSON.parse(JSON.stringify(body)) as unknown);
  return outcome.ok ? { ok: true, value: JSON.parse(JSON.stringify(outcome.value)) as unknown } : outcome;
}

const validatedFields = (dto: new () => object) =>
  [...new Set(getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false).map((rule) => rule.propertyName))].sort();

describe(UpdateOwnAccountSettingsRequestDto.name, () => {
  const secret = 'a-secret-of-16-chars';

  it.each([
    { scoreThresholds: { customer: { review: 60, prevent: 85 }, transaction: { review: 40, prevent: 40 } } },
    { scoreThresholds: null, callbackUrl: null, callbackSecret: null },
    { callbackUrl: 'https://hooks.merchant.example/ringfence', callbackSecret: secret },
    { scoreThresholds: { customer: { review: 90, prevent: 10 } } },
    { scoreThresholds: { payout: { review: 50, prevent: 101 } } },
    { scoreThresholds: { checkout: { review: 50, prevent: 60 } } },
    { scoreThresholds: { customer: 'high' } },
    { callbackUrl: 'http://hooks.merchant.example/ringfence', callbackSecret: 'too-short' },
    { callbackUrl: 42 },
    { timeZone: 'america/new_york' },
    { timeZone: null },
    { timeZone: 'Moon/Tranquility', scoreThresholds: null },
  ])('validates %j exactly as the admin route does', async (body) => {
    const own = await outcomeOf(UpdateOwnAccountSettingsRequestDto, body);

    expect(own).toEqual(await outcomeOf(UpdateAccountSettingsRequestDto, body));
  });

  it('refuses each operator-only setting, null included, naming every one', async () => {
    const outcome = await outcomeOf(UpdateOwnAccountSettingsRequestDto, { potentialLabelsEnabled: true, scoreThresholds: null, voucherTypes: null, defaultAction: 'PREVENT' });

    expect(outcome).toEqual({
      ok: false,
      problems: [`potentialLabelsEnabled: ${OPERATOR_ONLY_SETTING_RULE}`, `defaultAction: ${OPERATOR_ONLY_SETTING_RULE}`, `voucherTypes: ${OPERATOR_ONLY_SETTING_RULE}`],
    });
  });

  it('refuses every operator-only setting', async () => {
    for (const setting of OPERATOR_ONLY_SETTINGS) {
      await expect(outcomeOf(UpdateOwnAccountSettingsRequestDto, { [setting]: false })).resolves.toEqual({ ok: false, problems: [`${setting}: ${OPERATOR_ONLY_SETTING_RULE}`] });
    }
  });

  it('ignores fields that are no setting at all (forward compatibility), and the shown-only callbackSecretSet', async () => {
    await expect(outcomeOf(UpdateOwnAccountSettingsRequestDto, { callbackUrl: null, surprise: { nested: true }, callbackSecretSet: true })).resolves.toEqual({
      ok: true,
      value: { callbackUrl: null },
    });
  });
});

describe('the settings DTOs and SETTING_CHANGED_BY', () => {
  it('validate the same settings: the self-service ones on both routes, every one on the admin route', () => {
    expect(validatedFields(SelfServiceSettingsRequestDto)).toEqual([...SELF_SERVICE_SETTINGS].sort());
    expect(validatedFields(UpdateAccountSettingsRequestDto)).toEqual(Object.keys(SETTING_CHANGED_BY).sort());
    expect(validatedFields(UpdateOwnAccountSettingsRequestDto)).toEqual(Object.keys(SETTING_CHANGED_BY).sort());
  });
});
