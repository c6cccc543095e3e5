import { MAX_LISTED_PLACES, UNSTORABLE_TEXT_RULE, findUnstorableText, isStorableText, unstorableTextProblems } from './storable-text';

describe('text PostgreSQL cannot store', () => {
  it.each([
    ['a NUL character', 'a\u0000b'],
    ['a lone high surrogate', 'a\ud800b'],
    ['a high surrogate at the end', 'ab\udbff'],
    ['a lone low surrogate', '\udc00ab'],
    ['two high surrogates in a row', '\ud800\ud800\udc00'],
  ])('refuses %s', (_case, text) => {
    expect(isStorableText(text)).toBe(false);
  });

  it.each([
    ['plain text', 'Ada Lovelace'],
    ['the empty string', ''],
    ['a surrogate pair (an emoji)', 'ada \ud83d\ude00'],
    ['other control characters', 'tab\there\u0001'],
    ['a JSON-escaped NUL as text', '\\u0000'],
  ])('accepts %s', (_case, text) => {
    expect(isStorableText(text)).toBe(true);
  });

  it('names every place in payload order: values, keys and array items at any depth', () => {
    const body = JSON.parse(
      '{"timestamp":1,"customer":{"customerId":"c\\u0000","name":"ok","tags":{"v\\ud800":true}},"items":[{"sku":"ok"},{"sku":"\\udc00"}],"list":["a","\\u0000"]}',
    ) as unknown;
    expect(findUnstorableText(body, 'body')).toEqual(['customer.customerId', 'customer.tags.v\\ud800', 'items.1.sku', 'list.1']);
  });

  it('names the root when the value itself is a string, and ignores numbers, booleans and null', () => {
    expect(findUnstorableText('\u0000', 'body')).toEqual(['body']);
    expect(findUnstorableText({ a: 1, b: true, c: null, d: [null, 2] }, 'body')).toEqual([]);
    expect(findUnstorableText(undefined, 'body')).toEqual([]);
  });

  it('shows a bad key printable (no raw NUL or surrogate in the message) and cuts a long one', () => {
    const [place] = findUnstorableText({ [`${'k'.repeat(150)}\u0000`]: 1 }, 'body');
    expect(place).toBe(`${'k'.repeat(100)}…`);
    const [nul] = findUnstorableText({ 'a\u0000b': 1 }, 'body');
    expect(nul).toBe('a\\u0000b');
    expect(isStorableText(nul)).toBe(true);
  });

  it('does not overflow the stack on deep nesting', () => {
    let deep: unknown = '\u0000';
    for (let level = 0; level < 10_000; level += 1) deep = [deep];
    expect(findUnstorableText(deep, 'body')).toEqual([`${Array.from({ length: 10_000 }, () => '0').join('.')}`]);
  });

  it('lists path parameters, then query parameters, then the body, each as `path: rule`', () => {
    expect(
      unstorableTextProblems({
        params: { customerId: 'c\u0000' },
        query: { email: ['a', 'b\ud800'], ok: 'x' },
        body: { customer: { name: 'n\u0000' } },
      }),
    ).toEqual([`customerId: ${UNSTORABLE_TEXT_RULE}`, `email.1: ${UNSTORABLE_TEXT_RULE}`, `customer.name: ${UNSTORABLE_TEXT_RULE}`]);
    expect(unstorableTextProblems({ params: {}, query: {}, body: { fine: 'yes' } })).toEqual([]);
  });

  it(`lists at most ${MAX_LISTED_PLACES} places and counts the rest`, () => {
    const problems = unstorableTextProblems({ body: { list: Array.from({ length: MAX_LISTED_PLACES + 7 }, () => '\u0000') } });
    expect(problems).toHaveLength(MAX_LISTED_PLACES + 1);
    expect(problems[0]).toBe(`list.0: ${UNSTORABLE_TEXT_RULE}`);
    expect(problems[MAX_LISTED_PLACES]).toBe(`7 more fields: ${UNSTORABLE_TEXT_RULE}`);
  });
});
