import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Golden request fixtures, `test/contracts/fixtures/<slug>/{valid,invalid}/*.json`, shared by the
 * contract specs (and by HTTP-level tests that replay them through the real stack).
 *
 * File format: `{description, query?, body, expectErrors?}`. Valid fixtures carry no
 * `expectErrors`; invalid ones list every `path: rule` message the request must produce.
 */
export interface ContractFixture {
  /** `<slug>/<valid|invalid>/<file name without .json>`, for test titles. */
  name: string;
  description: string;
  query?: Record<string, string | string[]>;
  body: unknown;
  expectErrors?: string[];
}

export interface SlugFixtures {
  valid: ContractFixture[];
  invalid: ContractFixture[];
}

export const FIXTURES_DIRECTORY = join(__dirname, 'fixtures');

function isStringRecord(value: unknown): value is Record<string, string | string[]> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((item) => typeof item === 'string' || (Array.isArray(item) && item.every((part) => typeof part === 'string')))
  );
}

// A malformed fixture must fail loudly: one that silently lost its expectErrors would pass as valid.
function parseFixture(file: string, name: string, kind: keyof SlugFixtures): ContractFixture {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const { description, query, body, expectErrors } = parsed;
  const unexpected = Object.keys(parsed).filter((key) => !['description', 'query', 'body', 'expectErrors'].includes(key));
  if (unexpected.length > 0) throw new Error(`${file}: unknown keys ${unexpected.join(', ')}`);
  if (typeof description !== 'string' || description.length === 0) throw new Error(`${file}: description must be a non-empty string`);
  if (!('body' in parsed)) throw new Error(`${file}: body is missing`);
  if (query !== undefined && !isStringRecord(query)) throw new Error(`${file}: query must map names to strings (as a query string does)`);
  if (kind === 'valid' && expectErrors !== undefined) throw new Error(`${file}: a valid fixture has no expectErrors`);
  if (kind === 'invalid' && (!Array.isArray(expectErrors) || expectErrors.length === 0 || !expectErrors.every((e) => typeof e === 'string'))) {
    throw new Error(`${file}: an invalid fixture needs a non-empty expectErrors list of strings`);
  }
  return { name, description, query, body, expectErrors: expectErrors as string[] | undefined };
}

/** Every fixture of one endpoint slug, sorted by file name; throws when the slug has none. */
export function loadFixtures(slug: string): SlugFixtures {
  const load = (kind: keyof SlugFixtures): ContractFixture[] => {
    const directory = join(FIXTURES_DIRECTORY, slug, kind);
    let files: string[];
    try {
      files = readdirSync(directory).filter((file) => file.endsWith('.json')).sort();
    } catch {
      return [];
    }
    return files.map((file) => parseFixture(join(directory, file), `${slug}/${kind}/${file.slice(0, -'.json'.length)}`, kind));
  };
  const fixtures = { valid: load('valid'), invalid: load('invalid') };
  if (fixtures.valid.length === 0 || fixtures.invalid.length === 0) {
    throw new Error(`fixtures of '${slug}' need at least one valid and one invalid file under ${join(FIXTURES_DIRECTORY, slug)}`);
  }
  return fixtures;
}

/** The slugs that have a fixture folder, so a spec can check its table covers them all. */
export function fixtureSlugs(): string[] {
  return readdirSync(FIXTURES_DIRECTORY, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}
