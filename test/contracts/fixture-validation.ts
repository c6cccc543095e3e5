import { type InputClass, validateInput } from '@ringfence/service-runtime';
import { type ContractFixture, loadFixtures } from './fixture-loader';

/** The body (and query) classes an endpoint slug's fixtures are validated with. */
export type EndpointClasses = Record<string, { body: InputClass<object>; query?: InputClass<object> }>;

export type ValidationOutcome = { ok: true; body: object; query: object | undefined } | { ok: false; problems: string[] };

/**
 * Validates a fixture the way the gateway does: body and query with `validateInput`, query
 * problems first (as `ValidBodyAndQuery` reports them).
 */
export function fixtureValidator(endpoints: EndpointClasses) {
  return async (slug: string, fixture: Pick<ContractFixture, 'body' | 'query'>): Promise<ValidationOutcome> => {
    const endpoint = endpoints[slug];
    if (endpoint === undefined) throw new Error(`no classes for the fixtures of ${slug}`);
    if (fixture.query !== undefined && endpoint.query === undefined) throw new Error(`${slug} takes no query parameters`);
    // validateInput reads its input in place: a copy keeps the loaded fixture as it is on disk.
    const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
    const query = endpoint.query ? validateInput(endpoint.query, copy(fixture.query ?? {}), 'query') : undefined;
    const body = validateInput(endpoint.body, fixture.body === undefined ? undefined : copy(fixture.body), 'body');
    const problems = [...(query && !query.ok ? query.problems : []), ...(body.ok ? [] : body.problems)];
    if (problems.length > 0 || !body.ok) return { ok: false, problems };
    return { ok: true, body: body.value, query: query?.ok ? query.value : undefined };
  };
}

const sorted = (messages: readonly string[]) => [...messages].sort();

/**
 * Every fixture of every slug against `problemsOf` (what the route would refuse it for): valid
 * ones have no problem, invalid ones exactly their expected messages, so a fixture that starts
 * producing an extra error is a changed contract.
 */
export function describeFixtureExpectations(
  title: string,
  slugs: readonly string[],
  problemsOf: (slug: string, fixture: ContractFixture) => Promise<string[]>,
): void {
  describe(title, () => {
    describe.each(slugs)('%s', (slug) => {
      const { valid, invalid } = loadFixtures(slug);

      it.each(valid.map((fixture) => [fixture.name, fixture] as const))('accepts %s', async (_name, fixture) => {
        expect(await problemsOf(slug, fixture)).toEqual([]);
      });

      it.each(invalid.map((fixture) => [fixture.name, fixture] as const))('refuses %s', async (_name, fixture) => {
        expect(sorted(await problemsOf(slug, fixture))).toEqual(sorted(fixture.expectErrors ?? []));
      });
    });
  });
}

/** The same for endpoints whose only rules are their body and query classes. */
export function describeFixtureContracts(title: string, endpoints: EndpointClasses): void {
  const validateRequest = fixtureValidator(endpoints);
  describeFixtureExpectations(title, Object.keys(endpoints), async (slug, fixture) => {
    const outcome = await validateRequest(slug, fixture);
    return outcome.ok ? [] : outcome.problems;
  });
}
