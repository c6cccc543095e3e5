import { mkdtempSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { parseBreachLine } from '../breach-line';
import { sha256Hex } from '../password-hash';
import { CredentialsStore } from './credentials-store';
import { BlockParser, type ParsedBlock } from './parse-block';
import { passwordPrefixWords, prefixHex, usernameKey } from './record-format';
import { importCorpusFiles, importPairs } from './store-import';
import { readCurrent } from './store-layout';

const key = Buffer.from('a test key of at least 32 characters');

// Every import writes a generation of 1,024 partitions: seconds, not milliseconds, on a busy machine.
jest.setTimeout(120_000);

describe('the breached-credentials store', () => {
  let dir: string;
  let storeDir: string;
  const stores: CredentialsStore[] = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ringfence-store-'));
    storeDir = join(dir, 'credentials');
  });

  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  const open = async () => {
    const store = await CredentialsStore.open(storeDir, key);
    stores.push(store);
    return store;
  };
  const prefixesOf = async (store: CredentialsStore, username: string) => (await store.passwordPrefixesOf(username)).sort();

  it('answers nothing before any import', async () => {
    const store = await open();
    await expect(store.passwordPrefixesOf('ada')).resolves.toEqual([]);
    expect(store.stats).toEqual({ generation: undefined, pairs: 0, usernames: 0 });
  });

  it('answers exactly what a reference Map holds, over several merges (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.tuple(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 4 })), { maxLength: 80 }), { minLength: 1, maxLength: 3 }),
        async (batches) => {
          rmSync(storeDir, { recursive: true, force: true });
          const reference = new Map<string, Set<string>>();
          const store = await open();
          let stored = 0;
          for (const batch of batches) {
            const pairs = batch.map(([user, password]) => ({ username: `user-${user}`, passwordHash: sha256Hex(`pw-${password}`) }));
            const before = stored;
            for (const pair of pairs) {
              const set = reference.get(pair.username) ?? new Set<string>();
              set.add(pair.passwordHash.slice(0, 16));
              reference.set(pair.username, set);
            }
            stored = [...reference.values()].reduce((sum, set) => sum + set.size, 0);
            const result = await importPairs(storeDir, key, pairs);
            expect(result.newPairs).toBe(stored - before);
            expect(result.pairs).toBe(stored);
          }
          await store.reload();
          for (let user = 0; user <= 60; user += 1) {
            await expect(prefixesOf(store, `user-${user}`)).resolves.toEqual([...(reference.get(`user-${user}`) ?? [])].sort());
          }
        },
      ),
      { numRuns: 6 },
    );
  });

  it('finds a username whose records straddle a 4 KiB page, among many', async () => {
    const pairs = Array.from({ length: 20_000 }, (_, i) => ({ username: `u${i % 7_000}`, passwordHash: sha256Hex(`p${i}`) }));
    await importPairs(storeDir, key, pairs);
    const store = await open();
    expect(store.stats.pairs).toBe(20_000);
    expect(store.stats.usernames).toBe(7_000);
    for (let u = 0; u < 7_000; u += 1) {
      const expected = pairs.filter((pair) => pair.username === `u${u}`).map((pair) => pair.passwordHash.slice(0, 16)).sort();
      expect(await prefixesOf(store, `u${u}`)).toEqual(expected);
    }
    await expect(store.passwordPrefixesOf('nobody')).resolves.toEqual([]);
  });

  it('refuses a store written with another key', async () => {
    await importPairs(storeDir, key, [{ username: 'ada', passwordHash: sha256Hex('x') }]);
    await expect(CredentialsStore.open(storeDir, Buffer.from('another key, also 32 characters long'))).rejects.toThrow('CREDENTIALS_KEY');
  });

  it('keeps answering from the old generation until the swap, then from the new one', async () => {
    await importPairs(storeDir, key, [{ username: 'ada', passwordHash: sha256Hex('one') }]);
    const store = await open();
    await importPairs(storeDir, key, [{ username: 'ada', passwordHash: sha256Hex('two') }]);
    // The old generation's directory is gone, its files are still open.
    await expect(store.passwordPrefixesOf('ada')).resolves.toHaveLength(1);
    await store.reload();
    await expect(store.passwordPrefixesOf('ada')).resolves.toHaveLength(2);
  });

  describe('file imports', () => {
    const corpus = (name: string, lines: string[], gzip = false) => {
      const file = join(dir, name);
      const text = `${lines.join('\n')}\n`;
      writeFileSync(file, gzip ? gzipSync(text) : text);
      return file;
    };
    const lines = Array.from({ length: 3_000 }, (_, i) => (i % 500 === 7 ? `malformed line ${i}` : `User${i % 1_000}@Example.com:password ${i}`));

    it('streams plain and gzip files, counts malformed lines with their numbers, and is idempotent', async () => {
      const plain = corpus('a.txt', lines);
      const gz = corpus('b.txt.gz', [`ada:${sha256Hex('hashed').toUpperCase()}`, 'ada:plain', 'no colon'], true);
      const first = await importCorpusFiles(storeDir, key, [plain, gz], { threads: 0, blockBytes: 4096, runRecords: 700 });
      expect(first).toMatchObject({ files: 2, lines: 3_003, pairs: 2_996, newPairs: 2_996, storedPairs: 2_996, resumed: false });
      expect(first.malformed['no-separator']).toBe(7);
      expect(first.malformedLines.slice(0, 2)).toEqual([
        { file: plain, line: 8 },
        { file: plain, line: 508 },
      ]);
      const store = await open();
      await expect(prefixesOf(store, 'ada')).resolves.toEqual([sha256Hex('hashed').slice(0, 16), sha256Hex('plain').slice(0, 16)].sort());
      await expect(prefixesOf(store, 'user3@example.com')).resolves.toEqual(
        [3, 1_003, 2_003].map((i) => sha256Hex(`password ${i}`).slice(0, 16)).sort(),
      );
      const again = await importCorpusFiles(storeDir, key, [plain, gz], { threads: 0 });
      expect(again).toMatchObject({ newPairs: 0, storedPairs: 2_996 });
    });

    it.each([
      ['after a run file', { afterRun: (run: number) => run === 1 && crash() }],
      ['half-way through the merge', { afterPartition: (partition: number) => partition === 500 && crash() }],
      ['just before the swap', { beforeSwap: () => crash() }],
    ])('resumes after a crash %s, with the same result as an import that ran through', async (_step, hooks) => {
      const plain = corpus('a.txt', lines);
      await importPairs(storeDir, key, [{ username: 'earlier', passwordHash: sha256Hex('kept') }]);
      const before = readCurrent(storeDir);
      await expect(importCorpusFiles(storeDir, key, [plain], { threads: 0, blockBytes: 4096, runRecords: 700, ...hooks })).rejects.toThrow('simulated crash');
      // Checks still read the generation from before.
      expect(readCurrent(storeDir)).toBe(before);
      const store = await open();
      await expect(store.passwordPrefixesOf('user3@example.com')).resolves.toEqual([]);

      const resumed = await importCorpusFiles(storeDir, key, [plain], { threads: 0, blockBytes: 4096, runRecords: 700 });
      expect(resumed).toMatchObject({ resumed: true, lines: 3_000, pairs: 2_994, newPairs: 2_994, storedPairs: 2_995 });
      await store.reload();
      await expect(store.passwordPrefixesOf('user3@example.com')).resolves.toHaveLength(3);
      await expect(store.passwordPrefixesOf('earlier')).resolves.toHaveLength(1);
      expect(readdirSync(storeDir).sort()).toEqual(['CURRENT', readCurrent(storeDir)]);
      expect(existsSync(join(storeDir, 'import'))).toBe(false);
    });
  });

  it('parses a block exactly as parseBreachLine parses each line', () => {
    const lines = [' Ada@Example.com :hunter2', `ada:${sha256Hex('x').toUpperCase()}`, 'ada:pass:word ', 'crlf:line\r', 'nocolon', '', ' :x', 'ada:', `${'a'.repeat(257)}:x`, 'ünïcode:pässwörd'];
    const parsed = new BlockParser(key).parse(Buffer.from(`${lines.join('\n')}\n`));
    expectParity(parsed, lines);
    expect(parsed.malformed).toEqual({ 'no-separator': 2, 'empty-username': 1, 'empty-password': 1, 'username-too-long': 1 });
    expect(parsed.malformedLines).toEqual([5, 6, 7, 8, 9]);
  });

  it('parses the awkward cases as parseBreachLine does: Unicode spaces and case, invalid UTF-8, long and near-hash values', () => {
    const lines = [
      '\t\vMiXeD@Example.COM\f :pw',
      '\u00a0nbsp@example.com\u2003:pw',
      'İstanbul@example.com:pw',
      `${'ä'.repeat(256)}:x`,
      `${'ä'.repeat(257)}:x`,
      `${'b'.repeat(256)}:x`,
      `ada:${'p'.repeat(55)}`,
      `ada:${'p'.repeat(56)}`,
      `ada:${'p'.repeat(64)}`,
      `ada:${'p'.repeat(1_000)}`,
      `ada:${'a'.repeat(63)}`,
      `ada:${'A'.repeat(65)}`,
      `ada:${'0123456789abcdefABCDEF'.repeat(3).slice(0, 64)}`,
      `ada:${'g'.repeat(64)}`,
      'x\r\r',
      ':',
    ];
    const invalid = Buffer.from([0x61, 0xc3, 0x3a, 0x70, 0xff, 0x0a, 0xe2, 0x82, 0x3a, 0xc3, 0x0a]);
    const text = Buffer.from(`${lines.join('\n')}\n`);
    expectParity(new BlockParser(key).parse(Buffer.concat([text, invalid])), [...lines, ...invalid.toString('utf8').split('\n').slice(0, -1)]);
    // A last line without its newline is still a line.
    expectParity(new BlockParser(key).parse(Buffer.from('a:b\nc:d')), ['a:b', 'c:d']);
  });

  it('parses random lines as parseBreachLine does', () => {
    const parser = new BlockParser(key);
    const character = fc.constantFrom('a', 'Z', ' ', '\t', ':', '\r', 'é', 'Σ', '\u00a0', '0', 'f', 'F');
    const hex = fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), minLength: 64, maxLength: 64 });
    const line = fc.oneof(fc.string({ unit: character, maxLength: 80 }), hex.map((value) => `User:${value}`));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 20 }), (lines) => {
        expectParity(parser.parse(Buffer.from(lines.map((line) => `${line}\n`).join(''))), lines);
      }),
    );
  });
});

/** The block's records are, in order, what parseBreachLine makes of each line. */
function expectParity(parsed: ParsedBlock, lines: string[]): void {
  const results = lines.map(parseBreachLine);
  const expected = results.flatMap((line) => (line.ok ? [line.credential] : []));
  expect(parsed.lines).toBe(lines.length);
  expect(parsed.count).toBe(expected.length);
  expected.forEach((credential, i) => {
    expect([...parsed.records.subarray(i * 4, i * 4 + 2)]).toEqual(usernameKey(key, credential.username));
    expect(prefixHex(parsed.records[i * 4 + 2], parsed.records[i * 4 + 3])).toBe(prefixHex(...passwordPrefixWords(credential.passwordHash)));
  });
  for (const reason of ['no-separator', 'empty-username', 'empty-password', 'username-too-long'] as const) {
    expect(parsed.malformed[reason]).toBe(results.filter((line) => !line.ok && line.skip === reason).length);
  }
}

function crash(): never {
  throw new Error('simulated crash');
}
