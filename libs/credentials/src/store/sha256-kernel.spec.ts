import { createHmac, hash, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { SHA256_INITIAL_STATE, Sha256Hmac, Sha256Kernel } from './sha256-kernel';

const words = (state: Int32Array) => Buffer.from(Uint32Array.from(state, (word) => word >>> 0).map((word) => ((word & 0xff) << 24) | ((word & 0xff00) << 8) | ((word >>> 8) & 0xff00) | (word >>> 24)).buffer);

describe('Sha256Kernel', () => {
  const kernel = new Sha256Kernel();

  it('hashes every length around the block boundaries as node:crypto does', () => {
    for (let length = 0; length <= 200; length += 1) {
      const bytes = randomBytes(length + 7);
      expect(words(kernel.digest(SHA256_INITIAL_STATE, 0, bytes, 3, 3 + length))).toEqual(hash('sha256', bytes.subarray(3, 3 + length), 'buffer'));
    }
  });

  it('hashes the FIPS 180-4 examples', () => {
    const abc = Buffer.from('abc');
    expect(words(kernel.digest(SHA256_INITIAL_STATE, 0, abc, 0, 3)).toString('hex')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const two = Buffer.from('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq');
    expect(words(kernel.digest(SHA256_INITIAL_STATE, 0, two, 0, two.length)).toString('hex')).toBe('248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1');
  });

  it('hashes random inputs as node:crypto does', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 1_000 }), (bytes) => {
        expect(words(kernel.digest(SHA256_INITIAL_STATE, 0, bytes, 0, bytes.length))).toEqual(hash('sha256', bytes, 'buffer'));
      }),
    );
  });
});

describe('Sha256Hmac', () => {
  it('computes createHmac for keys shorter than, as long as and longer than a block, and messages of every size', () => {
    for (const key of [Buffer.from('k'), randomBytes(32), randomBytes(64), randomBytes(65), randomBytes(200)]) {
      const hmac = new Sha256Hmac(key);
      for (const length of [0, 1, 31, 55, 56, 63, 64, 65, 119, 120, 500]) {
        const message = randomBytes(length);
        expect(words(hmac.digest(message, 0, length))).toEqual(createHmac('sha256', key).update(message).digest());
      }
    }
  });

  it('computes createHmac for random keys and messages', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 150 }), fc.uint8Array({ maxLength: 300 }), (key, message) => {
        expect(words(new Sha256Hmac(key).digest(message, 0, message.length))).toEqual(createHmac('sha256', key).update(message).digest());
      }),
    );
  });
});
