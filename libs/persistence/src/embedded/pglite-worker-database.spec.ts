import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { serialize } from 'pg-protocol';
import type { BackendMessage } from 'pg-protocol/dist/messages';
import { background } from '../sql';
import { EMBEDDED_OPEN_TIMEOUT_MS, makeTempDataDir } from '../test-support/test-databases';
import { PGliteWorkerDatabase, initialiseDataDirectory } from './pglite-worker-database';

const OWNER_WAIT_MS = 300;

/** The rows' first column and the transaction status of a simple query's answer. */
function outcome(messages: BackendMessage[]) {
  const rows = messages.filter((message) => message.name === 'dataRow').map((message) => (message as unknown as { fields: string[] }).fields[0]);
  const ready = messages.find((message) => message.name === 'readyForQuery') as unknown as { status: string } | undefined;
  return { rows, status: ready?.status };
}

describe(PGliteWorkerDatabase.name, () => {
  let directory: string;
  let database: PGliteWorkerDatabase;

  beforeAll(async () => {
    directory = await makeTempDataDir();
    database = new PGliteWorkerDatabase(join(directory, 'pgdata'), OWNER_WAIT_MS);
    await database.waitReady;
  }, EMBEDDED_OPEN_TIMEOUT_MS);

  afterAll(async () => {
    await database.close();
    await rm(directory, { recursive: true, force: true });
  });

  it("ends a transaction left idle while another session waits: the waiting statement runs, the idle session's next one fails", async () => {
    const idle = database.openSession();
    const other = database.openSession();
    expect(outcome(await idle.execProtocolStream(serialize.query('BEGIN'), { throwOnError: false })).status).toBe('T');

    const started = Date.now();
    const waited = outcome(await other.execProtocolStream(serialize.query('SELECT 1'), { throwOnError: false }));
    expect(waited).toEqual({ rows: ['1'], status: 'I' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(OWNER_WAIT_MS - 20);

    await expect(idle.execProtocolStream(serialize.query('SELECT 2'), { throwOnError: false })).rejects.toThrow(/this session was ended/);
    expect(outcome(await database.openSession().execProtocolStream(serialize.query('SELECT 3'), { throwOnError: false })).rows).toEqual(['3']);
  });

  it('keeps a transaction whose session stays busy, and runs the others after it', async () => {
    const busy = database.openSession();
    const other = database.openSession();
    await busy.execProtocolStream(serialize.query('BEGIN'), { throwOnError: false });
    const waiting = other.execProtocolStream(serialize.query('SELECT 10'), { throwOnError: false });
    for (let index = 0; index < 6; index += 1) {
      await new Promise((resolve) => setTimeout(resolve, OWNER_WAIT_MS / 3));
      expect(outcome(await busy.execProtocolStream(serialize.query(`SELECT ${index}`), { throwOnError: false })).status).toBe('T');
    }
    expect(outcome(await busy.execProtocolStream(serialize.query('COMMIT'), { throwOnError: false })).status).toBe('I');
    expect(outcome(await waiting).rows).toEqual(['10']);
  });
});

/**
 * Sends each statement on a session of its own while a busy statement holds the worker, so
 * they all wait together; the order they were answered in.
 */
async function answerOrder(database: PGliteWorkerDatabase, statements: Record<string, string>, busyRows: number): Promise<string[]> {
  const answered: string[] = [];
  const busy = database.openSession().execProtocolStream(serialize.query(`SELECT count(*) FROM generate_series(1, ${busyRows})`), { throwOnError: false });
  await new Promise((resolve) => setTimeout(resolve, 20));
  await Promise.all([
    busy,
    ...Object.entries(statements).map(async ([name, sql]) => {
      expect(outcome(await database.openSession().execProtocolStream(serialize.query(sql), { throwOnError: false })).status).toBe('I');
      answered.push(name);
    }),
  ]);
  return answered;
}

describe(`${PGliteWorkerDatabase.name}: background statements`, () => {
  let directory: string;
  const open: PGliteWorkerDatabase[] = [];

  async function openDatabase(backgroundMaxWaitMs: number): Promise<PGliteWorkerDatabase> {
    const database = new PGliteWorkerDatabase(join(directory, `pgdata-${open.length}`), OWNER_WAIT_MS, backgroundMaxWaitMs);
    open.push(database);
    await database.waitReady;
    return database;
  }

  beforeAll(async () => {
    directory = await makeTempDataDir();
  });

  afterAll(async () => {
    await Promise.all(open.map((database) => database.close()));
    await rm(directory, { recursive: true, force: true });
  });

  it(
    'runs statements waiting together foreground first, then background, each kind in arrival order',
    async () => {
      const database = await openDatabase(60_000);
      const order = await answerOrder(
        database,
        { firstBackground: background('SELECT 1'), firstForeground: 'SELECT 2', secondBackground: background('SELECT 3'), secondForeground: 'SELECT 4' },
        1_000_000,
      );
      expect(order).toEqual(['firstForeground', 'secondForeground', 'firstBackground', 'secondBackground']);
    },
    EMBEDDED_OPEN_TIMEOUT_MS,
  );

  it(
    'runs a background statement that waited past its limit in its turn, so background work never starves',
    async () => {
      const limitMs = 100;
      const database = await openDatabase(limitMs);
      const started = Date.now();
      const order = await answerOrder(database, { background: background('SELECT 1'), foreground: 'SELECT 2' }, 5_000_000);
      // Meaningful only when the busy statement outlasted the limit (it takes several times longer).
      expect(Date.now() - started).toBeGreaterThan(limitMs);
      expect(order).toEqual(['background', 'foreground']);
    },
    EMBEDDED_OPEN_TIMEOUT_MS,
  );
});

describe(initialiseDataDirectory.name, () => {
  let directory: string;

  beforeAll(async () => {
    directory = await makeTempDataDir();
  });

  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it(
    'creates the database of a new directory, which then opens with its files as they were, and leaves an existing one alone',
    async () => {
      const dataDir = join(directory, 'pgdata');
      await initialiseDataDirectory(dataDir);
      const version = await stat(join(dataDir, 'PG_VERSION'));

      const database = new PGliteWorkerDatabase(dataDir, OWNER_WAIT_MS);
      try {
        await database.waitReady;
        const session = database.openSession();
        await session.execProtocolStream(serialize.query('CREATE TABLE kept (id int)'), { throwOnError: false });
        expect(outcome(await session.execProtocolStream(serialize.query('INSERT INTO kept VALUES (1)'), { throwOnError: false })).status).toBe('I');
      } finally {
        await database.close();
      }

      await initialiseDataDirectory(dataDir);
      expect((await stat(join(dataDir, 'PG_VERSION'))).mtimeMs).toBe(version.mtimeMs);
      const reopened = new PGliteWorkerDatabase(dataDir, OWNER_WAIT_MS);
      try {
        await reopened.waitReady;
        expect(outcome(await reopened.openSession().execProtocolStream(serialize.query('SELECT id FROM kept'), { throwOnError: false })).rows).toEqual(['1']);
      } finally {
        await reopened.close();
      }
    },
    3 * EMBEDDED_OPEN_TIMEOUT_MS,
  );
});
