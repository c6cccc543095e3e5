import { Readable } from 'node:stream';
import { type BreachedCredential, sha256Hex } from '@ringfence/credentials';
import { type ImportProgress, importBreachedCredentials } from './credentials-import';

const lines = (...content: string[]) => Readable.from([content.join('\n')]);

/** A server that stores pairs as the admin route does: each pair once. */
function fakeServer() {
  const stored = new Set<string>();
  const batches: BreachedCredential[][] = [];
  const send = jest.fn(async (entries: BreachedCredential[]) => {
    batches.push(entries);
    let inserted = 0;
    for (const { username, passwordHash } of entries) {
      const key = `${username}:${passwordHash}`;
      if (!stored.has(key)) inserted += 1;
      stored.add(key);
    }
    return { received: entries.length, inserted };
  });
  return { send, batches, stored };
}

describe(importBreachedCredentials.name, () => {
  it('sends plaintext passwords only as SHA-256, hashes as they are, and counts the lines it skips', async () => {
    const server = fakeServer();
    const hash = sha256Hex('already-hashed');

    const summary = await importBreachedCredentials(
      lines('Ada@Example.com:hunter2', `grace:${hash}`, 'no separator here', '', ':no-user', 'user-without-password:'),
      server.send,
    );

    expect(server.batches).toEqual([
      [
        { username: 'ada@example.com', passwordHash: sha256Hex('hunter2') },
        { username: 'grace', passwordHash: hash },
      ],
    ]);
    expect(JSON.stringify(server.batches)).not.toContain('hunter2');
    expect(summary).toEqual({
      lines: 6,
      sent: 2,
      inserted: 2,
      alreadyStored: 0,
      skipped: { 'no-separator': 2, 'empty-username': 1, 'empty-password': 1, 'username-too-long': 0 },
    });
  });

  it('sends batches of the size asked, one after the other, reporting progress after each', async () => {
    const server = fakeServer();
    const progress: ImportProgress[] = [];
    const input = lines(...Array.from({ length: 7 }, (_, index) => `user${index}:password${index}`));

    const summary = await importBreachedCredentials(input, server.send, { batchEntries: 3, onProgress: (step) => progress.push(step) });

    expect(server.batches.map((batch) => batch.length)).toEqual([3, 3, 1]);
    expect(progress.map((step) => step.sent)).toEqual([3, 6, 7]);
    expect(summary.inserted).toBe(7);
  });

  it('never sends more than 5,000 pairs in one request', async () => {
    const server = fakeServer();
    const input = Readable.from(Array.from({ length: 5_001 }, (_, index) => `u${index}:p\n`));

    await importBreachedCredentials(input, server.send, { batchEntries: 100_000 });

    expect(server.batches.map((batch) => batch.length)).toEqual([5_000, 1]);
  });

  it('keeps each request well under the body limit, however long the usernames', async () => {
    const server = fakeServer();
    const longName = 'u'.repeat(250);
    const input = Readable.from(Array.from({ length: 3_000 }, (_, index) => `${longName}${index}:pw\n`));

    await importBreachedCredentials(input, server.send, { batchEntries: 5_000 });

    for (const batch of server.batches) expect(JSON.stringify({ entries: batch }).length).toBeLessThan(1024 * 1024);
    expect(server.batches.reduce((total, batch) => total + batch.length, 0)).toBe(3_000);
  });

  it('reports the pairs a re-run found stored already', async () => {
    const server = fakeServer();
    await importBreachedCredentials(lines('ada:one', 'ada:two'), server.send);

    const again = await importBreachedCredentials(lines('ada:one', 'ada:two', 'ada:three'), server.send);

    expect(again).toMatchObject({ sent: 3, inserted: 1, alreadyStored: 2 });
  });

  it('stops at the first refused batch', async () => {
    const send = jest.fn().mockRejectedValue(new Error('503 the database is unavailable'));

    await expect(importBreachedCredentials(lines('ada:one'), send)).rejects.toThrow('503');
  });
});
