import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { BODY_RESERVED_KEY, BODY_TOO_DEEP, BODY_UNSTORABLE_TEXT, MAX_JSON_DEPTH, scanBody } from './body-scan';
import { findReservedKeys } from './reserved-keys';
import { findUnstorableText } from './storable-text';

const nested = (levels: number): unknown => {
  let value: unknown = 1;
  for (let level = 0; level < levels; level += 1) value = level % 2 ? [value] : { a: value };
  return value;
};

const FIXTURES = join(__dirname, '../../../../../test/contracts/fixtures');

/** Every golden fixture's body (valid and invalid, every endpoint). */
function goldenBodies(): Array<[string, unknown]> {
  const bodies: Array<[string, unknown]> = [];
  for (const endpoint of readdirSync(FIXTURES)) {
    for (const kind of ['valid', 'invalid']) {
      const directory = join(FIXTURES, endpoint, kind);
      let files: string[] = [];
      try {
        files = readdirSync(directory).filter((file) => file.endsWith('.json'));
      } catch {
        continue;
      }
      for (const file of files) bodies.push([`${endpoint}/${kind}/${file}`, (JSON.parse(readFileSync(join(directory, file), 'utf8')) as { body?: unknown }).body]);
    }
  }
  return bodies;
}

/** What the guards' naming walks find, as `scanBody`'s bits. */
function foundByTheFinders(body: unknown): number {
  return (findUnstorableText(body, 'body').length > 0 ? BODY_UNSTORABLE_TEXT : 0) | (findReservedKeys(body).length > 0 ? BODY_RESERVED_KEY : 0);
}

describe(scanBody.name, () => {
  it('accepts scalars and bodies up to the depth limit', () => {
    expect(scanBody('text')).toBe(0);
    expect(scanBody(nested(MAX_JSON_DEPTH))).toBe(0);
  });

  it('refuses one level more, and survives a million levels, walking no deeper than the limit', () => {
    expect(scanBody(nested(MAX_JSON_DEPTH + 1))).toBe(BODY_TOO_DEEP);
    expect(scanBody(JSON.parse('['.repeat(1_000_000) + ']'.repeat(1_000_000)))).toBe(BODY_TOO_DEEP);
  });

  it('finds text that cannot be stored, in values and keys, at any depth within the limit', () => {
    expect(scanBody({ customer: { name: 'a\u0000b' } })).toBe(BODY_UNSTORABLE_TEXT);
    expect(scanBody(JSON.parse('{"items":[{"sku":"\\ud800"}]}'))).toBe(BODY_UNSTORABLE_TEXT);
    expect(scanBody(JSON.parse('{"tags":{"\\udc00x":1}}'))).toBe(BODY_UNSTORABLE_TEXT);
    expect(scanBody({ name: '😀 whole pairs are text' })).toBe(0);
  });

  it('finds keys named constructor, but not such a value', () => {
    expect(scanBody(JSON.parse('{"customer":{"tags":{"constructor":true}}}'))).toBe(BODY_RESERVED_KEY);
    expect(scanBody({ customer: { customerId: 'constructor' }, list: ['constructor'] })).toBe(0);
  });

  it('reports every kind it finds in one body', () => {
    expect(scanBody(JSON.parse('{"constructor":"\\u0000"}'))).toBe(BODY_RESERVED_KEY | BODY_UNSTORABLE_TEXT);
  });

  it('agrees with the walks that name the places, on every golden fixture and on each made unstorable and reserved', () => {
    const bodies = goldenBodies();
    expect(bodies.length).toBeGreaterThan(50);
    for (const [name, body] of bodies) {
      expect([name, scanBody(body)]).toEqual([name, foundByTheFinders(body)]);
      if (body === null || typeof body !== 'object' || Array.isArray(body) || Object.keys(body).length === 0) continue;
      // Its first key made unstorable, and a `constructor` key added.
      const spoilt = { ...(JSON.parse(JSON.stringify(body).replace(/"([^"\\]*)"/, '"$1\\u0000"')) as object), x: JSON.parse('{"constructor":1}') as unknown };
      expect([name, scanBody(spoilt)]).toEqual([name, foundByTheFinders(spoilt)]);
      expect(scanBody(spoilt)).toBe(BODY_UNSTORABLE_TEXT | BODY_RESERVED_KEY);
    }
  });
});
