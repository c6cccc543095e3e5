import {
  ConnectRequestDto,
  VoucherRequestDto,
} from '@ringfence/contracts';
import { type ContractFixture, loadFixtures } from './fixture-loader';
import { CUSTOMER_SIDE_ENDPOINTS } from './endpoint-classes';
import { describeFixtureContracts, fixtureValidator } from './fixture-validation';

/**
 * Golden request fixtures of the customer-side endpoints (connect, customer, supplier,
 * registration, vouchers), validated the way the gateway does: body and query with
 * `validateInput`, query problems first (as `ValidBodyAndQuery` reports them).
 */
const ENDPOINTS = CUSTOMER_SIDE_ENDPOINTS;

const validateRequest = fixtureValidator(ENDPOINTS);

describeFixtureContracts('request contracts: customer-side endpoints', ENDPOINTS);

describe('request contracts: what validation hands on', () => {
  const fixture = (slug: string, kind: 'valid' | 'invalid', name: string) => {
    const found = loadFixtures(slug)[kind].find((candidate) => candidate.name === `${slug}/${kind}/${name}`);
    if (!found) throw new Error(`no fixture ${slug}/${kind}/${name}`);
    return found;
  };
  const accepted = async (slug: string, request: Pick<ContractFixture, 'body' | 'query'>) => {
    const outcome = await validateRequest(slug, request);
    if (!outcome.ok) throw new Error(outcome.problems.join('; '));
    return outcome;
  };

  it('converts the connect query to a boolean and an integer, and defaults depth to 20', async () => {
    expect((await accepted('connect', fixture('connect', 'valid', 'full'))).query).toEqual({ features: true, depth: 6 });
    expect((await accepted('connect', { body: { timestamp: 1, customerId: 'c' }, query: { features: 'false' } })).query).toEqual({ features: false, depth: 20 });
    expect((await accepted('connect', { body: { timestamp: 1, customerId: 'c' } })).query).toEqual({ depth: 20 });
  });

  it('refuses a repeated query parameter instead of picking one of its values', async () => {
    const outcome = await validateRequest('connect', { body: { timestamp: 1, customerId: 'c' }, query: { features: ['true', 'false'], depth: ['3', '4'] } });
    expect(outcome.ok ? [] : outcome.problems).toEqual(['features: must be true or false', 'depth: must be an integer from 1 to 20']);
  });

  it('converts score=true of the voucher redemption to a boolean', async () => {
    expect((await accepted('voucher-redemption', fixture('voucher-redemption', 'valid', 'full'))).query).toEqual({ score: true });
  });

  it('drops unknown fields at every level and keeps the known ones', async () => {
    const { body, query } = await accepted('connect', fixture('connect', 'valid', 'unknown-fields-ignored'));
    expect(JSON.parse(JSON.stringify(body))).toEqual({
      timestamp: 1763800000000,
      customerId: 'cus-61213',
      vehicles: [{ vin: 'JTDKN3DU5A0123456' }],
      nationalIdentifications: [{ driversLicense: { idNumber: 'LOVEL853116AA9IJ' } }],
      review: { label: 'GENUINE' },
    });
    expect(query).toEqual({ features: true, depth: 20 });
  });

  it('hands national identifications on in the wire shape, each document validated under its kind', async () => {
    const request = fixture('connect', 'valid', 'full');
    const { body } = await accepted('connect', request);
    const identifications = (body as ConnectRequestDto).nationalIdentifications! as unknown as Array<Record<string, { idNumber: string }>>;
    expect(identifications[1]!['passport']?.idNumber).toBe('533112245');
    const withUnknown = { timestamp: 1, customerId: 'c', nationalIdentifications: [{ passport: { idNumber: '1', issuedBy: 'dropped' } }] };
    expect(((await accepted('connect', { body: withUnknown })).body as ConnectRequestDto).nationalIdentifications).toEqual([{ passport: { idNumber: '1' } }]);
    expect(JSON.parse(JSON.stringify(identifications))).toEqual((request.body as { nationalIdentifications: unknown }).nationalIdentifications);
  });

  it('drops addresseeName from the connect billing address, which does not have one', async () => {
    const card = { billingAddress: { addresseeName: 'Ada Lovelace', geohash: 'gcpvn0ntjut', city: 'London' } };
    const { body } = await accepted('connect', { body: { timestamp: 1, customerId: 'c', paymentMethods: [{ card }] } });
    expect((body as ConnectRequestDto).paymentMethods![0]!.card.billingAddress).toEqual({ geohash: 'gcpvn0ntjut', city: 'London' });
  });

  it('keeps the voucher custom object exactly as sent', async () => {
    const request = fixture('voucher', 'valid', 'full');
    const { body } = await accepted('voucher', request);
    expect((body as VoucherRequestDto).voucher.custom).toEqual((request.body as { voucher: { custom: unknown } }).voucher.custom);
  });
});
