import { connect, createServer, type Socket } from 'node:net';
import neo4j, { type Driver, int, isInt, Neo4jError, type Session } from 'neo4j-driver';
import { NEO4J_CODE } from './bolt-failures';
import { BOLT_MAGIC } from './handshake';
import { type BoltTestServer, startBoltServer } from './bolt-server';
import { BoltSession, REQUEST } from './bolt-session';
import { MessageDechunker, OutgoingMessages } from './message-framing';
import { type BoltStructure, decodePackStream, type PackStreamValue } from './packstream';

const AUTH = neo4j.auth.basic('neo4j', 'test');

describe(startBoltServer.name, () => {
  let server: BoltTestServer;
  let driver: Driver;
  const sessions: Session[] = [];

  const openSession = (config: Parameters<Driver['session']>[0] = {}): Session => {
    const session = driver.session(config);
    sessions.push(session);
    return session;
  };

  beforeAll(async () => {
    server = await startBoltServer();
    driver = neo4j.driver(server.url, AUTH);
  });

  beforeEach(async () => {
    await server.database.executeCypher('MATCH (n) DETACH DELETE n');
  });

  afterEach(async () => {
    await Promise.all(sessions.splice(0).map((session) => session.close()));
    jest.restoreAllMocks();
  });

  afterAll(async () => {
    await driver.close();
    await server.close();
  });

  it('serves the driver on an ephemeral loopback port, over Bolt 5.4', async () => {
    expect(server.url).toBe(`bolt://127.0.0.1:${server.port}`);
    expect(server.port).toBeGreaterThan(0);

    await driver.verifyConnectivity();
    const info = await driver.getServerInfo();

    expect(info.protocolVersion?.toString()).toBe('5.4');
    expect(info.address).toBe(`127.0.0.1:${server.port}`);
  });

  it('runs auto-commit queries with parameters of every PackStream type', async () => {
    const parameters = { text: 'héllo 😀', whole: int(42), fraction: 1.5, yes: true, nothing: null, list: [int(1), 'two', [int(3)]], map: { a: int(1), b: { c: 'd' } } };

    const result = await openSession().run('RETURN $text AS text, $whole AS whole, $fraction AS fraction, $yes AS yes, $nothing AS nothing, $list AS list, $map AS map', parameters);

    expect(result.records).toHaveLength(1);
    expect(result.records[0].keys).toEqual(['text', 'whole', 'fraction', 'yes', 'nothing', 'list', 'map']);
    expect(result.records[0].toObject()).toEqual(parameters);
  });

  it('creates 1,000 nodes from one UNWIND of maps and reports the counters', async () => {
    const rows = Array.from({ length: 1000 }, (_, index) => ({ id: `c-${index}`, score: int(index) }));

    const write = await openSession().run('UNWIND $rows AS row CREATE (c:Customer {id: row.id, score: row.score})', { rows });
    const read = await openSession().run('MATCH (c:Customer) RETURN count(c) AS count, sum(c.score) AS total');

    expect(write.summary.counters.updates().nodesCreated).toBe(1000);
    expect(write.summary.counters.containsUpdates()).toBe(true);
    expect(read.records[0].get('count').toNumber()).toBe(1000);
    expect(read.records[0].get('total').toNumber()).toBe((999 * 1000) / 2);
  });

  it('keeps MERGE idempotent across runs, with ON CREATE and ON MATCH', async () => {
    const merge = 'MERGE (c:Customer {id: $id}) ON CREATE SET c.visits = 1 ON MATCH SET c.visits = c.visits + 1 RETURN c.visits AS visits';
    const session = openSession();

    const first = await session.run(merge, { id: 'c-1' });
    const second = await session.run(merge, { id: 'c-1' });
    const count = await session.run('MATCH (c:Customer {id: $id}) RETURN count(c) AS count', { id: 'c-1' });

    expect(first.records[0].get('visits').toNumber()).toBe(1);
    expect(first.summary.counters.updates().nodesCreated).toBe(1);
    expect(second.records[0].get('visits').toNumber()).toBe(2);
    expect(second.summary.counters.updates().nodesCreated).toBe(0);
    expect(count.records[0].get('count').toNumber()).toBe(1);
  });

  it('commits the work of executeWrite, which reads its own writes', async () => {
    const seenInside = await openSession().executeWrite(async (tx) => {
      await tx.run('CREATE (:Customer {id: $id})', { id: 'c-1' });
      await tx.run('CREATE (:Customer {id: $id})', { id: 'c-2' });
      const inside = await tx.run('MATCH (c:Customer) RETURN c.id AS id ORDER BY id');
      return inside.records.map((record) => record.get('id'));
    });
    const afterwards = await openSession().executeRead((tx) => tx.run('MATCH (c:Customer) RETURN count(c) AS count'));

    expect(seenInside).toEqual(['c-1', 'c-2']);
    expect(afterwards.records[0].get('count').toNumber()).toBe(2);
  });

  it('rolls a transaction back: on ROLLBACK and when the executeWrite work throws', async () => {
    const session = openSession();
    const explicit = session.beginTransaction();
    await explicit.run('CREATE (:Customer {id: "rolled-back"})');
    await explicit.rollback();
    await expect(
      session.executeWrite(async (tx) => {
        await tx.run('CREATE (:Customer {id: "thrown"})');
        throw new Error('the work failed');
      }),
    ).rejects.toThrow('the work failed');

    const count = await session.run('MATCH (c:Customer) RETURN count(c) AS count');

    expect(count.records[0].get('count').toNumber()).toBe(0);
  });

  it('gives a commit bookmark that advances with each write', async () => {
    const session = openSession();

    await session.executeWrite((tx) => tx.run('CREATE (:Customer)'));
    const first = session.lastBookmarks();
    await session.executeWrite((tx) => tx.run('CREATE (:Customer)'));
    const second = session.lastBookmarks();

    expect(first).toHaveLength(1);
    expect(second).toHaveLength(1);
    expect(second).not.toEqual(first);
  });

  it('surfaces a bad query as a Neo4jError with its code, and the session keeps working', async () => {
    const session = openSession();

    const error = await session.run('RETURN syntax error here').then(
      () => null,
      (caught: unknown) => caught,
    );
    const after = await session.run('RETURN 1 AS one');

    expect(error).toBeInstanceOf(Neo4jError);
    expect((error as Neo4jError).code).toBe(NEO4J_CODE.SYNTAX_ERROR);
    expect(after.records[0].get('one').toNumber()).toBe(1);
  });

  it('fails a transaction on a bad statement, rolls it back, and the session recovers', async () => {
    const session = openSession();
    const tx = session.beginTransaction();
    await tx.run('CREATE (:Customer {id: "lost"})');

    await expect(tx.run('RETURN 1 / 0 AS boom')).rejects.toMatchObject({ code: NEO4J_CODE.ARITHMETIC_ERROR });
    await tx.close();
    const count = await session.run('MATCH (c:Customer) RETURN count(c) AS count');

    expect(count.records[0].get('count').toNumber()).toBe(0);
  });

  it('maps a uniqueness violation to ConstraintValidationFailed', async () => {
    const session = openSession();
    await session.run('CREATE CONSTRAINT customer_id IF NOT EXISTS FOR (c:Customer) REQUIRE c.id IS UNIQUE');
    await session.run('CREATE (:Customer {id: "c-1"})');

    await expect(session.run('CREATE (:Customer {id: "c-1"})')).rejects.toMatchObject({ code: NEO4J_CODE.CONSTRAINT_VALIDATION_FAILED });
  });

  it('refuses writes in a read transaction or a read session, as Neo4j does', async () => {
    await expect(openSession().executeRead((tx) => tx.run('CREATE (:Customer)'))).rejects.toMatchObject({ code: NEO4J_CODE.ACCESS_MODE });
    await expect(openSession({ defaultAccessMode: neo4j.session.READ }).run('CREATE (:Customer)')).rejects.toMatchObject({ code: NEO4J_CODE.ACCESS_MODE });

    const count = await server.database.executeCypher('MATCH (c:Customer) RETURN count(c) AS count');
    expect(count.scalar()).toBe(0);
  });

  it('runs the transactions of different connections one after the other: a second BEGIN waits for the first to end', async () => {
    await server.database.executeCypher('CREATE (:Customer {id: "shared"})');
    const first = openSession().beginTransaction();
    await first.run('MATCH (c:Customer {id: "shared"}) SET c.owner = "first"');
    const secondSession = openSession();
    const second = secondSession.executeWrite((tx) => tx.run('MATCH (c:Customer {id: "shared"}) SET c.previous = c.owner, c.owner = "second"'));
    const secondDone = jest.fn();
    void second.then(secondDone);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(secondDone).not.toHaveBeenCalled();

    await first.commit();
    await second;

    // The second saw the first's committed write.
    const row = (await server.database.executeCypher('MATCH (c:Customer) RETURN c.previous AS previous, c.owner AS owner')).toArray()[0];
    expect(row).toEqual({ previous: 'first', owner: 'second' });
  });

  it('streams 10,000 rows to a small fetchSize in PULL batches of that size', async () => {
    const handled = jest.spyOn(BoltSession.prototype, 'handle');
    const session = openSession({ fetchSize: 250 });

    const values: number[] = [];
    for await (const record of session.run('UNWIND range(1, 10000) AS i RETURN i')) values.push(record.get('i').toNumber());

    expect(values).toEqual(Array.from({ length: 10_000 }, (_, index) => index + 1));
    expect(pullSizes(handled.mock.calls)).toEqual(Array.from({ length: 10_000 / 250 }, () => 250));
  });

  it('discards the rest of a result the client stops reading', async () => {
    const handled = jest.spyOn(BoltSession.prototype, 'handle');
    const session = openSession({ fetchSize: 10 });

    const summary = await session.run('UNWIND range(1, 1000) AS i CREATE (:Row {i: i}) RETURN i').summary();
    const next = await session.run('MATCH (r:Row) RETURN count(r) AS count');

    expect(handled.mock.calls.some(([message]) => message.signature === REQUEST.DISCARD)).toBe(true);
    expect(summary.counters.updates().nodesCreated).toBe(1000);
    expect(next.records[0].get('count').toNumber()).toBe(1000);
  });

  it('streams several open results of one transaction side by side, by their qid', async () => {
    const handled = jest.spyOn(BoltSession.prototype, 'handle');
    const tx = openSession({ fetchSize: 10 }).beginTransaction();
    const collect = async (query: string): Promise<number[]> => {
      const values: number[] = [];
      for await (const record of tx.run(query)) values.push(record.get('i').toNumber());
      return values;
    };

    const [low, high] = await Promise.all([collect('UNWIND range(1, 25) AS i RETURN i'), collect('UNWIND range(101, 125) AS i RETURN i')]);
    await tx.commit();

    expect(low).toEqual(Array.from({ length: 25 }, (_, index) => index + 1));
    expect(high).toEqual(Array.from({ length: 25 }, (_, index) => index + 101));
    const queryIds = handled.mock.calls.filter(([message]) => message.signature === REQUEST.PULL).map(([pull]) => (pull.fields[0] as { qid?: bigint }).qid);
    expect(queryIds).toContain(0n);
  });

  it('streams a result of 100,000 rows in batches of the default fetchSize', async () => {
    const handled = jest.spyOn(BoltSession.prototype, 'handle');
    let count = 0;
    let total = 0;

    // subscribe, not for-await: the driver's async iterator alone takes seconds here under jest.
    await new Promise<void>((resolve, reject) => {
      openSession()
        .run('UNWIND range(1, 100000) AS i RETURN i')
        .subscribe({
          onNext: (record) => {
            count++;
            total += record.get('i').toNumber();
          },
          onCompleted: () => resolve(),
          onError: reject,
        });
    });

    expect(count).toBe(100_000);
    expect(total).toBe((100_000 * 100_001) / 2);
    expect(pullSizes(handled.mock.calls)).toEqual(Array.from({ length: 100 }, () => 1000));
  });

  it('round-trips integers of every width, past 2^31 and 2^53, stored and returned', async () => {
    const values = ['0', '-1', '-16', '-17', '127', '128', '-129', '32768', '2147483648', '-2147483649', '9007199254740993', '9223372036854775807', '-9223372036854775808'];
    const session = openSession();

    await session.run('UNWIND $values AS value CREATE (:Number {text: toString(value), value: value})', { values: values.map((text) => int(text)) });
    const result = await session.run('MATCH (n:Number) RETURN n.text AS text, n.value AS value');

    const returned = result.records.map((record) => {
      const value = record.get('value');
      expect(isInt(value)).toBe(true);
      return [record.get('text'), value.toString()];
    });
    expect(Object.fromEntries(returned)).toEqual(Object.fromEntries(values.map((text) => [text, text])));
  });

  it('gives plain numbers to a driver with disableLosslessIntegers', async () => {
    const lossy = neo4j.driver(server.url, AUTH, { disableLosslessIntegers: true });
    const session = lossy.session();
    try {
      const result = await session.run('RETURN $big AS big, 2147483648 * 2 AS product, 0.25 AS fraction', { big: int('4294967296') });

      expect(result.records[0].toObject()).toEqual({ big: 4294967296, product: 4294967296, fraction: 0.25 });
    } finally {
      await session.close();
      await lossy.close();
    }
  });

  it('returns nodes, relationships and paths as the driver types', async () => {
    const session = openSession();
    await session.run('CREATE (:Customer {id: "c-1"})-[:USES {since: 5}]->(:Email {address: "a@b.c"})<-[:USES]-(:Customer {id: "c-2"})');

    const result = await session.run(
      'MATCH p = (a:Customer {id: "c-1"})-[r:USES]->(e:Email)<-[:USES]-(b:Customer) RETURN a, r, e, p',
    );

    const record = result.records[0];
    const [customer, uses, email, path] = [record.get('a'), record.get('r'), record.get('e'), record.get('p')];
    expect(customer).toBeInstanceOf(neo4j.types.Node);
    expect(customer.labels).toEqual(['Customer']);
    expect(customer.properties).toEqual({ id: 'c-1' });
    expect(uses).toBeInstanceOf(neo4j.types.Relationship);
    expect(uses.type).toBe('USES');
    expect(uses.properties).toEqual({ since: int(5) });
    expect(uses.startNodeElementId).toBe(customer.elementId);
    expect(uses.endNodeElementId).toBe(email.elementId);
    expect(path).toBeInstanceOf(neo4j.types.Path);
    expect(path.length).toBe(2);
    expect(path.start.properties).toEqual({ id: 'c-1' });
    expect(path.end.properties).toEqual({ id: 'c-2' });
    expect(path.segments[1].relationship.endNodeElementId).toBe(email.elementId);
  });

  it('takes a DateTime parameter and returns a stored one as a DateTime', async () => {
    const at = neo4j.types.DateTime.fromStandardDate(new Date('2024-05-06T07:08:09.123Z'));
    const session = openSession();

    await session.run('CREATE (:Event {at: $at})', { at });
    const result = await session.run('MATCH (e:Event) RETURN e.at AS at');

    const returned = result.records[0].get('at');
    expect(neo4j.isDateTime(returned)).toBe(true);
    expect(new Date(returned.toString()).toISOString()).toBe('2024-05-06T07:08:09.123Z');
  });

  it('serves concurrent sessions on separate connections', async () => {
    const ids = Array.from({ length: 12 }, (_, index) => `c-${index}`);

    const written = await Promise.all(ids.map((id) => openSession().executeWrite((tx) => tx.run('MERGE (c:Customer {id: $id}) RETURN c.id AS id', { id }))));
    const counts = await Promise.all(ids.map(() => openSession().executeRead((tx) => tx.run('MATCH (c:Customer) RETURN count(c) AS count'))));

    expect(written.map((result) => result.records[0].get('id'))).toEqual(ids);
    expect(counts.map((result) => result.records[0].get('count').toNumber())).toEqual(ids.map(() => ids.length));
  });

  it('answers ROUTE for neo4j:// URLs with a table that points at itself', async () => {
    const routing = neo4j.driver(`neo4j://127.0.0.1:${server.port}`, AUTH);
    try {
      const result = await routing.executeQuery('RETURN 1 AS one', {}, { routing: neo4j.routing.WRITE });

      expect(result.records[0].get('one').toNumber()).toBe(1);
      expect(result.summary.database.name).toBe('neo4j');
    } finally {
      await routing.close();
    }
  });

  it('refuses a database it does not have', async () => {
    await expect(openSession({ database: 'elsewhere' }).run('RETURN 1')).rejects.toMatchObject({ code: NEO4J_CODE.DATABASE_NOT_FOUND });
  });

  it('negotiates by manifest or the classic way, and refuses versions it does not speak', async () => {
    const proposal = (...versions: number[][]): Buffer => {
      const bytes = Buffer.alloc(20);
      bytes.writeUInt32BE(BOLT_MAGIC, 0);
      versions.forEach(([major, minor, range], index) => bytes.set([0, range, minor, major], 4 + index * 4));
      return bytes;
    };

    expect([...(await handshake(server.port, proposal([5, 8, 8], [4, 4, 2]), 4))]).toEqual([0, 0, 4, 5]);
    expect([...(await handshake(server.port, proposal([4, 4, 2], [3, 0, 0]), 4))]).toEqual([0, 0, 0, 0]);
    // Manifest v1: 255.1, one version (5.4), no capabilities.
    expect([...(await handshake(server.port, proposal([255, 1, 0], [5, 8, 8]), 10))]).toEqual([0, 0, 1, 255, 1, 0, 0, 4, 5, 0]);
  });

  it('ignores requests after a FAILURE until RESET, as the Bolt state machine says', async () => {
    const requests: Array<[number, PackStreamValue[]]> = [
      [REQUEST.HELLO, [{ user_agent: 'raw-test' }]],
      [REQUEST.LOGON, [{ scheme: 'basic', principal: 'neo4j', credentials: 'test' }]],
      [REQUEST.RUN, ['RETURN nonsense(', {}, {}]],
      [REQUEST.PULL, [{ n: -1n }]],
      [REQUEST.RUN, ['RETURN 1 AS one', {}, {}]],
      [REQUEST.RESET, []],
      [REQUEST.RUN, ['RETURN 1 AS one', {}, {}]],
      [REQUEST.PULL, [{ n: -1n }]],
    ];

    const responses = await exchange(server.port, requests, 8);

    expect(responses.map((response) => response.signature)).toEqual([SUCCESS, SUCCESS, FAILURE, IGNORED, IGNORED, SUCCESS, SUCCESS, RECORD]);
    expect(responses[2].fields[0]).toMatchObject({ code: NEO4J_CODE.SYNTAX_ERROR });
    expect(responses[7].fields[0]).toEqual([1n]);
  });

  it('releases its port on close() and drops its connections', async () => {
    const other = await startBoltServer();
    const connected = neo4j.driver(other.url, AUTH);
    const session = connected.session();
    await session.run('RETURN 1');

    await other.close();

    await expect(session.run('RETURN 1')).rejects.toThrow();
    await session.close();
    await connected.close();
    const fresh = neo4j.driver(other.url, AUTH);
    await expect(fresh.verifyConnectivity()).rejects.toMatchObject({ code: 'ServiceUnavailable' });
    await fresh.close();
    await expect(listensOn(other.port)).resolves.toBe(true);
  });
});

/** The `n` of each PULL the server handled, in order. */
function pullSizes(calls: Array<[BoltStructure]>): number[] {
  return calls
    .map(([message]) => message)
    .filter((message) => message.signature === REQUEST.PULL)
    .map((pull) => Number((pull.fields[0] as { n: bigint }).n));
}

/** The first `length` bytes of the server's answer to a raw handshake. */
function handshake(port: number, proposal: Buffer, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, '127.0.0.1', () => socket.write(proposal));
    let received = Buffer.alloc(0);
    socket.on('data', (data: Buffer) => {
      received = Buffer.concat([received, data]);
      if (received.length >= length) {
        socket.destroy();
        resolve(received.subarray(0, length));
      }
    });
    socket.on('error', reject);
  });
}

const [SUCCESS, RECORD, IGNORED, FAILURE] = [0x70, 0x71, 0x7e, 0x7f];

/** Sends Bolt 5.4 requests over a raw socket; resolves with the first `count` responses. */
function exchange(port: number, requests: Array<[number, PackStreamValue[]]>, count: number): Promise<BoltStructure[]> {
  const outgoing = new OutgoingMessages();
  for (const [signature, fields] of requests) outgoing.add(signature, fields);
  const preamble = Buffer.alloc(20);
  preamble.writeUInt32BE(BOLT_MAGIC, 0);
  preamble.set([0, 0, 4, 5], 4);
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, '127.0.0.1', () => socket.write(preamble));
    const dechunker = new MessageDechunker();
    const responses: BoltStructure[] = [];
    let agreed = false;
    socket.on('data', (data: Buffer) => {
      if (!agreed) {
        agreed = true;
        socket.write(outgoing.take());
        data = data.subarray(4);
      }
      responses.push(...dechunker.push(data).map((message) => decodePackStream(message) as BoltStructure));
      if (responses.length >= count) {
        socket.destroy();
        resolve(responses.slice(0, count));
      }
    });
    socket.on('error', reject);
  });
}

/** Whether a fresh server can listen on `port`: the port is free. */
function listensOn(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}
