import fc from 'fast-check';
import { BoltStructure, decodePackStream, type PackStreamValue, PackStreamWriter } from './packstream';

const encode = (value: PackStreamValue): string => {
  const writer = new PackStreamWriter();
  writer.write(value);
  return writer.take().toString('hex');
};

describe(PackStreamWriter.name, () => {
  // Byte strings from the examples of the PackStream specification.
  it.each<[string, PackStreamValue, string]>([
    ['null', null, 'c0'],
    ['true', true, 'c3'],
    ['false', false, 'c2'],
    ['a tiny int', 1n, '01'],
    ['the smallest tiny int', -16n, 'f0'],
    ['an INT_8', -17n, 'c8ef'],
    ['an INT_16', 128n, 'c90080'],
    ['a negative INT_16', -129n, 'c9ff7f'],
    ['an INT_32', 32_768n, 'ca00008000'],
    ['an INT_64', 2n ** 31n, 'cb0000000080000000'],
    ['the largest INT_64', 2n ** 63n - 1n, 'cb7fffffffffffffff'],
    ['a float', 1.1, 'c13ff199999999999a'],
    ['a whole float', 1, 'c13ff0000000000000'],
    ['an empty string', '', '80'],
    ['a tiny string', 'a', '8161'],
    ['a multi-byte string', 'é', '82c3a9'],
    ['a STRING_8', 'abcdefghijklmnop', 'd010' + Buffer.from('abcdefghijklmnop').toString('hex')],
    ['a tiny list', [1n, 2n, 3n], '93010203'],
    ['a tiny map', { a: 1n }, 'a1816101'],
    ['bytes', Buffer.from([1, 2, 3]), 'cc03010203'],
    ['a structure', new BoltStructure(0x70, [{}]), 'b170a0'],
  ])('encodes %s', (_name, value, hex) => {
    expect(encode(value)).toBe(hex);
  });

  it('refuses an integer beyond 64 bits', () => {
    expect(() => encode(2n ** 63n)).toThrow(RangeError);
  });
});

describe(decodePackStream.name, () => {
  const packStreamValue = fc.letrec<{ value: PackStreamValue }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.constant(null),
      fc.boolean(),
      fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
      fc.double({ noNaN: true }),
      fc.string({ unit: 'grapheme', maxLength: 300 }),
      fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
      fc.array(tie('value'), { maxLength: 20 }),
      fc.dictionary(fc.string(), tie('value'), { maxKeys: 20 }),
      fc.tuple(fc.integer({ min: 0, max: 0x7f }), fc.array(tie('value'), { maxLength: 15 })).map(([signature, fields]) => new BoltStructure(signature, fields)),
    ),
  })).value;

  it('reads back what the writer wrote', () => {
    fc.assert(
      fc.property(packStreamValue, (value) => {
        const writer = new PackStreamWriter();
        writer.write(value);
        expect(decodePackStream(writer.take())).toEqual(value);
      }),
    );
  });

  it('refuses a value cut short', () => {
    expect(() => decodePackStream(Buffer.from('d00561', 'hex'))).toThrow('runs past the end');
  });

  it('keeps a "__proto__" key as a plain key', () => {
    const decoded = decodePackStream(Buffer.from('a1895f5f70726f746f5f5f01', 'hex'));

    expect(Object.keys(decoded as object)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype);
  });
});
