import {
  BreachedCredentialsImportRequestDto,
  CredentialsCheckRequestDto,
  LookupAddRequestDto,
  LookupDeleteQueryDto,
  LookupReadQueryDto,
} from '@ringfence/contracts';
import { type InputClass, validateInput } from '@ringfence/service-runtime';
import { type EmbeddedService, TEST_ADMIN_KEY, TEST_BOOTSTRAP_KEY, startEmbeddedService } from '../support/embedded-service';
import { type ContractFixture, loadFixtures } from './fixture-loader';
import { describeFixtureExpectations } from './fixture-validation';

/**
 * Golden requests of the lookup routes (ADR-0006, ADR-0007): each validated as the gateway does,
 * then replayed through the embedded app. GET and DELETE take a query only (`body: null`).
 */
const ENDPOINTS: Record<string, { method: string; path: string; body?: InputClass<object>; query?: InputClass<object>; apiKey: string }> = {
  'lookup-add': { method: 'POST', path: '/v2/lookup', body: LookupAddRequestDto, apiKey: TEST_BOOTSTRAP_KEY },
  'lookup-read': { method: 'GET', path: '/v2/lookup', query: LookupReadQueryDto, apiKey: TEST_BOOTSTRAP_KEY },
  'lookup-delete': { method: 'DELETE', path: '/v2/lookup', query: LookupDeleteQueryDto, apiKey: TEST_BOOTSTRAP_KEY },
  'lookup-credentials-check': { method: 'POST', path: '/v2/lookup/credentials/check', body: CredentialsCheckRequestDto, apiKey: TEST_BOOTSTRAP_KEY },
  'lookup-credentials-import': { method: 'POST', path: '/admin/breached-credentials', body: BreachedCredentialsImportRequestDto, apiKey: TEST_ADMIN_KEY },
};

async function problemsOf(slug: string, fixture: ContractFixture): Promise<string[]> {
  const endpoint = ENDPOINTS[slug]!;
  const query = endpoint.query ? validateInput(endpoint.query, fixture.query ?? {}, 'query') : undefined;
  const body = endpoint.body ? validateInput(endpoint.body, fixture.body, 'body') : undefined;
  return [...(query && !query.ok ? query.problems : []), ...(body && !body.ok ? body.problems : [])];
}

describeFixtureExpectations('request contracts: lookup routes', Object.keys(ENDPOINTS), problemsOf);

describe('request contracts of the lookup routes through the HTTP stack', () => {
  let service: EmbeddedService;

  beforeAll(async () => {
    service = await startEmbeddedService();
  }, 60_000);

  afterAll(async () => {
    await service?.close();
  });

  const send = (slug: string, fixture: ContractFixture) => {
    const endpoint = ENDPOINTS[slug]!;
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(fixture.query ?? {})) for (const item of [value].flat()) query.append(name, item);
    const search = query.size > 0 ? `?${query}` : '';
    return service.client.send<Record<string, unknown>>({
      method: endpoint.method,
      path: `${endpoint.path}${search}`,
      body: endpoint.body ? fixture.body : undefined,
      apiKey: endpoint.apiKey,
    });
  };

  describe.each(Object.keys(ENDPOINTS))('%s', (slug) => {
    const { valid, invalid } = loadFixtures(slug);

    it.each(valid.map((fixture) => [fixture.name, fixture] as const))('answers 200 to %s', async (_name, fixture) => {
      const response = await send(slug, fixture);
      expect({ status: response.status, body: response.body }).toMatchObject({ status: 200 });
    });

    it.each(invalid.map((fixture) => [fixture.name, fixture] as const))('answers 400 to %s, naming each broken rule', async (_name, fixture) => {
      const response = await send(slug, fixture);
      expect(response.status).toBe(400);
      for (const expected of fixture.expectErrors!) expect(String(response.body.message)).toContain(expected);
    });
  });
});
