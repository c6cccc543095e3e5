import { jsonTextSequence, nullableJsonTextSequence } from './sql';

describe(jsonTextSequence.name, () => {
  it.each([
    ['no text', []],
    ['one text', ['{"a":1}']],
    ['texts of one-byte characters', ['{"a":1}', '[]', '"x"']],
    ['texts of two-, three- and four-byte characters', ['{"name":"Zoë"}', '"日本"', '{"emoji":"🙂🙂"}', '"ascii"']],
    ['an empty text first, between and last', ['', '{}', '', '[]', '']],
  ])('is the UTF-8 bytes of the texts joined by U+001E: %s', (_case, texts) => {
    expect(jsonTextSequence(texts).equals(Buffer.from(texts.join('\u001e'), 'utf8'))).toBe(true);
  });
});

describe(nullableJsonTextSequence.name, () => {
  it('sends each null as the empty text, which nullableJsonTexts reads back as NULL', () => {
    expect(nullableJsonTextSequence(['{"a":1}', null, '[]', null]).toString('utf8')).toBe('{"a":1}\u001e\u001e[]\u001e');
  });
});
