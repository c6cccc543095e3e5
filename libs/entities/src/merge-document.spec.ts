import fc from 'fast-check';
import type { EntityDocument } from './entity-document';
import { mergeDocument } from './merge-document';

const applyAll = (payloads: Array<{ fields: Record<string, unknown>; timestamp: number }>) =>
  payloads.reduce<EntityDocument | null>((doc, { fields, timestamp }) => mergeDocument(doc, fields, timestamp) ?? doc, null);

const payloadArbitrary = fc.record({
  fields: fc.record(
    {
      email: fc.constantFrom('a@x.io', 'b@x.io', 'c@x.io'),
      name: fc.string({ maxLength: 4 }),
      location: fc.record({ city: fc.constantFrom('Leeds', 'York'), postalCode: fc.string({ maxLength: 3 }) }, { requiredKeys: [] }),
      tags: fc.dictionary(fc.constantFrom('vip', 'staff', 'a.b', 'x/y'), fc.boolean()),
    },
    { requiredKeys: [] },
  ),
  timestamp: fc.integer({ min: 1, max: 20 }),
});

describe(mergeDocument.name, () => {
  it('keeps a newer field against an older payload', () => {
    const newer = mergeDocument(null, { email: 'new@x.io', name: 'Ada' }, 200)!;
    const merged = mergeDocument(newer, { email: 'old@x.io', telephone: '+44' }, 100)!;
    expect(merged.fields).toEqual({ email: 'new@x.io', name: 'Ada', telephone: '+44' });
    expect(merged.fieldTimestamps).toEqual({ '/email': 200, '/name': 200, '/telephone': 100 });
  });

  it('merges nested objects leaf by leaf', () => {
    const first = mergeDocument(null, { location: { city: 'Leeds', postalCode: 'LS1' } }, 100)!;
    const merged = mergeDocument(first, { location: { city: 'York' } }, 200)!;
    expect(merged.fields).toEqual({ location: { city: 'York', postalCode: 'LS1' } });
  });

  it('replaces a stored leaf by an object when a newer payload nests fields under it, and keeps the other fields', () => {
    const first = mergeDocument(null, { location: 'Leeds', name: 'Ada' }, 100)!;
    const merged = mergeDocument(first, { location: { city: 'York' } }, 200)!;
    expect(merged.fields).toEqual({ location: { city: 'York' }, name: 'Ada' });
    expect(merged.fieldTimestamps).toEqual({ '/location': 100, '/name': 100, '/location/city': 200 });
    // An older nested payload takes the leaves the stored document has no time for.
    expect(mergeDocument(merged, { location: { city: 'Hull', postalCode: 'HU1' } }, 150)!.fields).toEqual({ location: { city: 'York', postalCode: 'HU1' }, name: 'Ada' });
  });

  it('returns null when a replay changes nothing', () => {
    const first = mergeDocument(null, { email: 'a@x.io', tags: { vip: true } }, 100)!;
    expect(mergeDocument(first, { email: 'a@x.io', tags: { vip: true } }, 100)).toBeNull();
  });

  it('keeps "__proto__" as data, never as a prototype', () => {
    const merged = mergeDocument(null, JSON.parse('{"tags":{"__proto__":true}}') as Record<string, unknown>, 1)!;
    expect(Object.getPrototypeOf(merged.fields.tags)).toBe(Object.prototype);
    expect(Object.keys(merged.fields.tags as object)).toEqual(['__proto__']);
  });

  it('keeps "__proto__" on the way to a leaf as data, and Object.prototype untouched', () => {
    // A chargeback id "__proto__" gives the path /chargebacks/__proto__/forgiven (fast-check found it).
    const merged = mergeDocument(null, JSON.parse('{"chargebacks":{"__proto__":{"forgiven":false}}}') as Record<string, unknown>, 1)!;
    expect(Object.prototype).not.toHaveProperty('forgiven');
    const chargebacks = merged.fields.chargebacks as Record<string, unknown>;
    expect(Object.getPrototypeOf(chargebacks)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(chargebacks, '__proto__')?.value).toEqual({ forgiven: false });
  });

  it("makes a key Object.prototype has (toString, constructor) an own data property, as any other", () => {
    const merged = mergeDocument(null, { toString: 'a', tags: { constructor: true, hasOwnProperty: 1 } }, 1)!;
    expect(Object.getOwnPropertyDescriptor(merged.fields, 'toString')).toEqual({ value: 'a', enumerable: true, writable: true, configurable: true });
    expect(JSON.stringify(merged.fields)).toBe('{"toString":"a","tags":{"constructor":true,"hasOwnProperty":1}}');
    expect(merged.fieldTimestamps).toEqual({ '/toString': 1, '/tags/constructor': 1, '/tags/hasOwnProperty': 1 });
  });

  it('keys the timestamps by JSON Pointer paths, escaping "~" and "/", also past the paths it remembers', () => {
    const keys = Array.from({ length: 12_000 }, (_unused, index) => `k${index}`);
    const merged = mergeDocument(null, { 'a/b': { 'c~d': 1, '~/': 2 }, many: Object.fromEntries(keys.map((key) => [key, true])) }, 1)!;
    expect(merged.fieldTimestamps['/a~1b/c~0d']).toBe(1);
    expect(merged.fieldTimestamps['/a~1b/~0~1']).toBe(1);
    expect(keys.every((key) => merged.fieldTimestamps[`/many/${key}`] === 1)).toBe(true);
    const again = mergeDocument(merged, { 'a/b': { 'c~d': 3 }, many: { k0: false, k11999: false } }, 2)!;
    expect(again.fieldTimestamps).toMatchObject({ '/a~1b/c~0d': 2, '/a~1b/~0~1': 1, '/many/k0': 2, '/many/k1': 1, '/many/k11999': 2 });
  });

  it('never changes the document it starts from, and shares only what it does not change', () => {
    fc.assert(
      fc.property(fc.array(payloadArbitrary, { minLength: 2, maxLength: 8 }), (payloads) => {
        const [first, ...rest] = payloads;
        let document = mergeDocument(null, first.fields, first.timestamp) ?? { fields: {}, fieldTimestamps: {} };
        for (const { fields, timestamp } of rest) {
          const before = structuredClone(document);
          const merged = mergeDocument(document, fields, timestamp);
          expect(document).toEqual(before);
          if (merged === null) continue;
          for (const key of Object.keys(merged.fields)) {
            const sameObject = merged.fields[key] === document.fields[key];
            if (sameObject && typeof merged.fields[key] === 'object') expect(merged.fields[key]).toEqual(before.fields[key]);
          }
          document = merged;
        }
      }),
    );
  });

  it('gives the same document whatever order the payloads arrive in', () => {
    fc.assert(
      fc.property(fc.array(payloadArbitrary, { minLength: 1, maxLength: 8 }), fc.nat(), (payloads, seed) => {
        const shuffled = [...payloads].sort((a, b) => ((a.timestamp * 7919 + seed) % 13) - ((b.timestamp * 7919 + seed) % 13));
        expect(applyAll(shuffled)).toEqual(applyAll(payloads));
      }),
    );
  });

  it('is idempotent: applying every payload twice equals applying it once', () => {
    fc.assert(
      fc.property(fc.array(payloadArbitrary, { minLength: 1, maxLength: 8 }), (payloads) => {
        expect(applyAll([...payloads, ...payloads])).toEqual(applyAll(payloads));
      }),
    );
  });
});
