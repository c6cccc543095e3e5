import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PAYLOAD_ROUTES, type PayloadRouteName, StateGroups, normaliseTimestamps, toWireJson } from '@ringfence/contracts';
import { plainToInstance } from 'class-transformer';
import { INGEST_ROUTES } from './ingest-routes';

const FIXTURES = join(__dirname, '../../../../test/contracts/fixtures');

/** The golden fixtures of each route (`test/contracts/fixtures/<slug>`). */
const FIXTURE_SLUGS: Record<PayloadRouteName, string> = {
  customer: 'customer',
  registration: 'registration',
  payout: 'payout',
  refund: 'refund',
  voucherRedemption: 'voucher-redemption',
  transaction: 'psp-transaction',
  supplier: 'supplier',
  voucher: 'voucher',
  dispute: 'psp-dispute',
  connect: 'connect',
};

/** What the gateway adds to a body before publishing it (the registration's id and verdict). */
const GATEWAY_ADDITIONS: Partial<Record<PayloadRouteName, object>> = {
  registration: { registrationId: 'reg_1', credentialStatus: { usernameBreached: false, passwordBreached: false } },
};

/** Every golden valid body of a route, as ingestion receives it: its payload class, times in ms, wire JSON. */
function wirePayloads(name: PayloadRouteName): Array<Record<string, unknown>> {
  const directory = join(FIXTURES, FIXTURE_SLUGS[name], 'valid');
  return readdirSync(directory).map((file) => {
    const { body } = JSON.parse(readFileSync(join(directory, file), 'utf8')) as { body: object };
    const payloadClass: new () => object = PAYLOAD_ROUTES[name].payloadClass;
    return toWireJson(normaliseTimestamps(plainToInstance(payloadClass, { ...body, ...GATEWAY_ADDITIONS[name] })));
  });
}

describe('INGEST_ROUTES', () => {
  it('consumes exactly the topics that readers of the entity store wait for (read your writes)', () => {
    expect(INGEST_ROUTES.map((route) => route.topic).sort()).toEqual([...StateGroups.ingestion.topics].sort());
  });

  it.each(Object.keys(PAYLOAD_ROUTES) as PayloadRouteName[])('stores from %s the entities the payload table says it carries, and no others', (name) => {
    const row = PAYLOAD_ROUTES[name];
    const route = INGEST_ROUTES.find((candidate) => candidate.topic === row.ingestTopic)!;
    expect(route.payloadClass).toBe(row.payloadClass);
    const kinds = new Set(wirePayloads(name).flatMap((payload) => route.updates(payload).map((update) => update.kind)));
    expect([...kinds].sort()).toEqual([...row.entities].sort());
  });
});
