import { type EntityDocument, type EntityRef, mergeDocument } from '@ringfence/entities';
import { DEFAULT_ROW_ATTEMPTS, InMemorySetAsideStore, SetAsideRows } from '@ringfence/platform';
import type { DocumentWrite, StoredDocument } from './typeorm-entity-document.repository';
import { type DocumentTable, WriteBehindEntityDocuments } from './write-behind-entity-document.repository';

const T = 1_763_800_000_000;
const ada: EntityRef = { accountId: 'acc_1', environment: 'test', kind: 'customer', entityId: 'ada' };

/** A table counting what reaches it; its clock ticks once per document written. */
class CountingTable implements DocumentTable {
  readonly documents = new Map<string, EntityDocument>();
  readonly updatedAt = new Map<string, number>();
  /** Held pages: a page is read (its documents copied) at once, and answered when released. */
  holdPages: Promise<void> | undefined;
  reads = 0;
  statements = 0;
  failNextWrite = false;
  /** Documents with this entity id are refused, as PostgreSQL refuses a value it cannot store. */
  refusedEntityId: string | undefined;

  async find(ref: EntityRef): Promise<EntityDocument | null> {
    this.reads += 1;
    return this.documents.get(ref.entityId) ?? null;
  }

  async putMany(writes: readonly DocumentWrite[]): Promise<void> {
    if (this.failNextWrite) {
      this.failNextWrite = false;
      throw new Error('the database is down');
    }
    this.statements += 1;
    if (writes.some(({ ref }) => ref.entityId === this.refusedEntityId)) {
      throw Object.assign(new Error('invalid input syntax for type bigint: "1e+24"'), { code: '22P02' });
    }
    for (const { ref, document } of writes) this.store(ref.entityId, document);
  }

  store(entityId: string, document: EntityDocument): void {
    this.documents.set(entityId, document);
    this.updatedAt.set(entityId, this.updatedAt.size + this.documents.size + this.statements);
  }

  async storedAfter(after: EntityRef | undefined, limit: number, documentsFrom: Date | null): Promise<StoredDocument[]> {
    const page = [...this.documents.keys()]
      .sort()
      .filter((entityId) => after === undefined || entityId > after.entityId)
      .slice(0, limit)
      .map((entityId) => ({
        ref: { ...ada, entityId },
        document: documentsFrom === null || (this.updatedAt.get(entityId) ?? 0) >= documentsFrom.getTime() ? this.documents.get(entityId) : undefined,
      }));
    await this.holdPages;
    return page;
  }

  async nthMostRecentUpdate(count: number): Promise<Date | null> {
    const times = [...this.updatedAt.values()].sort((a, b) => b - a);
    return count <= times.length ? new Date(times[count - 1]) : null;
  }
}

const setField = (fields: Record<string, unknown>, at: number) => (current: EntityDocument | null) => mergeDocument(current, fields, at);

const grace: EntityRef = { ...ada, entityId: 'grace' };

function setup(cachedDocuments = 100) {
  const store = new CountingTable();
  const setAsideStore = new InMemorySetAsideStore();
  const setAside = new SetAsideRows(setAsideStore);
  return { store, setAside, setAsideStore, documents: new WriteBehindEntityDocuments(store, setAside, { cachedDocuments }) };
}

const flushFailing = (documents: WriteBehindEntityDocuments) => documents.flush().then(() => 'written', () => 'not written');

describe(WriteBehindEntityDocuments.name, () => {
  it('shows an update to the next read at once, and writes every changed document in one statement per flush', async () => {
    const { store, documents } = setup();
    await documents.update(ada, setField({ email: 'ada@example.com' }, T));
    await documents.update(ada, setField({ name: 'Ada' }, T + 1));
    await documents.update(grace, setField({ name: 'Grace' }, T));

    expect((await documents.find(ada))?.fields).toEqual({ email: 'ada@example.com', name: 'Ada' });
    expect(store.statements).toBe(0);
    await documents.flush();
    expect(store.statements).toBe(1);
    expect(store.documents.get('grace')?.fields).toEqual({ name: 'Grace' });
    expect(store.documents.get('ada')?.fields).toEqual({ email: 'ada@example.com', name: 'Ada' });
    expect(documents.unwritten).toBe(0);
  });

  it('keeps a document whose write failed for the next flush', async () => {
    const { store, documents } = setup();
    await documents.update(ada, setField({ email: 'ada@example.com' }, T));
    store.failNextWrite = true;
    await expect(documents.flush()).rejects.toThrow('the database is down');
    expect(documents.unwritten).toBe(1);
    await documents.flush();
    expect(store.documents.get('ada')?.fields).toEqual({ email: 'ada@example.com' });
  });

  describe('a document the table refuses (ADR-0016)', () => {
    const poisoned: EntityRef = { ...ada, entityId: 'poisoned' };

    it('writes the others at once, sets it aside after its attempts, serves it from memory, and writes the next updates', async () => {
      const { store, documents, setAsideStore } = setup();
      store.refusedEntityId = 'poisoned';
      await documents.update(poisoned, setField({ birthday: 1e24 }, T));
      await documents.update(grace, setField({ name: 'Grace' }, T));

      expect(await flushFailing(documents)).toBe('not written');
      expect(store.documents.get('grace')?.fields).toEqual({ name: 'Grace' });
      for (let attempt = 2; attempt < DEFAULT_ROW_ATTEMPTS; attempt += 1) expect(await flushFailing(documents)).toBe('not written');
      expect(setAsideStore.rows).toEqual([]);

      await documents.flush();

      expect(setAsideStore.rows).toEqual([expect.objectContaining({ writer: 'entity-documents', accountId: 'acc_1', environment: 'test', attempts: DEFAULT_ROW_ATTEMPTS })]);
      expect(setAsideStore.rows[0].error).toContain('22P02');
      expect(documents.unwritten).toBe(0);
      expect((await documents.find(poisoned))?.fields).toEqual({ birthday: 1e24 });
      await documents.update(ada, setField({ name: 'Ada' }, T));
      await documents.flush();
      expect(store.documents.get('ada')?.fields).toEqual({ name: 'Ada' });
    });

    it('sets nothing aside while the table is down, and writes everything when it returns', async () => {
      const { store, documents, setAsideStore } = setup();
      await documents.update(ada, setField({ name: 'Ada' }, T));
      for (let flush = 0; flush < DEFAULT_ROW_ATTEMPTS + 2; flush += 1) {
        store.failNextWrite = true;
        expect(await flushFailing(documents)).toBe('not written');
      }

      await documents.flush();

      expect(setAsideStore.rows).toEqual([]);
      expect(store.documents.get('ada')?.fields).toEqual({ name: 'Ada' });
    });

    it('writes a set-aside document when an operator replays it after the cause is fixed', async () => {
      const { store, documents, setAside, setAsideStore } = setup();
      store.refusedEntityId = 'poisoned';
      await documents.update(poisoned, setField({ birthday: 1e24 }, T));
      for (let attempt = 1; attempt < DEFAULT_ROW_ATTEMPTS; attempt += 1) await flushFailing(documents);
      await documents.flush();
      const [entry] = setAsideStore.rows;

      expect(await setAside.replay(entry.id)).toEqual(expect.objectContaining({ outcome: 'not-written' }));
      store.refusedEntityId = undefined;
      expect(await setAside.replay(entry.id)).toEqual(expect.objectContaining({ outcome: 'written' }));

      expect(store.documents.get('poisoned')?.fields).toEqual({ birthday: 1e24 });
      expect(setAsideStore.rows).toEqual([]);
    });
  });

  it('keeps an update made while a flush was writing for the next flush', async () => {
    const { store, documents } = setup();
    await documents.update(ada, setField({ email: 'ada@example.com' }, T));
    const write = store.putMany.bind(store);
    store.putMany = async (writes) => {
      await documents.update(ada, setField({ name: 'Ada' }, T + 1));
      return write(writes);
    };
    await documents.flush();
    expect(documents.unwritten).toBe(1);
    store.putMany = write;
    await documents.flush();
    expect(store.documents.get('ada')?.fields).toEqual({ email: 'ada@example.com', name: 'Ada' });
  });

  it('applies concurrent updates of one document one after the other', async () => {
    const { documents } = setup();
    await Promise.all(Array.from({ length: 20 }, (_, n) => documents.update(ada, setField({ [`f${n}`]: n }, T + n))));
    expect(Object.keys((await documents.find(ada))?.fields ?? {})).toHaveLength(20);
  });

  it('serves written documents, and documents known not to exist, from memory', async () => {
    const { store, documents } = setup();
    await documents.update(ada, setField({ email: 'ada@example.com' }, T));
    await documents.flush();
    expect(await documents.find(grace)).toBeNull();
    const readsBefore = store.reads;
    expect((await documents.find(ada))?.fields).toEqual({ email: 'ada@example.com' });
    expect(await documents.find(grace)).toBeNull();
    expect(store.reads).toBe(readsBefore);
  });

  it("keeps another account's documents in memory while one account floods past its fair part, letting go of its own (ADR-0016)", async () => {
    const store = new CountingTable();
    const documents = new WriteBehindEntityDocuments(store, new SetAsideRows(new InMemorySetAsideStore()), { cachedDocuments: 100 });
    const neighbour = (i: number): EntityRef => ({ ...ada, accountId: 'acc_neighbour', entityId: `neighbour-${i}` });
    const flooder = (i: number): EntityRef => ({ ...ada, accountId: 'acc_flooder', entityId: `flood-${i}` });
    for (let i = 0; i < 20; i += 1) await documents.update(neighbour(i), setField({ name: `n${i}` }, T));
    await documents.flush();

    for (let i = 0; i < 1_000; i += 1) await documents.update(flooder(i), setField({ name: `f${i}` }, T));
    await documents.flush();

    const readsBefore = store.reads;
    for (let i = 0; i < 20; i += 1) expect((await documents.find(neighbour(i)))?.fields).toEqual({ name: `n${i}` });
    expect(store.reads).toBe(readsBefore);
    // The flooder's own least recently used went: read back from the table, nothing lost.
    expect((await documents.find(flooder(0)))?.fields).toEqual({ name: 'f0' });
    expect(store.reads).toBe(readsBefore + 1);
  });

  describe('what is stored, loaded at start', () => {
    async function storedTable(count: number) {
      const store = new CountingTable();
      for (let index = 0; index < count; index += 1) store.store(`customer-${index}`, { fields: { name: `n${index}` }, fieldTimestamps: { '/name': T } });
      const documents = new WriteBehindEntityDocuments(store, new SetAsideRows(new InMemorySetAsideStore()), { cachedDocuments: 10, keyPageSize: 7 });
      return { store, documents };
    }

    it('answers a document never stored without reading the table once the keys are loaded, and still reads every stored one', async () => {
      const { store, documents } = await storedTable(50);
      expect(await documents.loadStored()).toEqual({ state: 'loaded', keys: 50, documents: 10, seconds: expect.any(Number) });

      for (let index = 0; index < 200; index += 1) expect(await documents.find({ ...ada, entityId: `new-${index}` })).toBeNull();
      // A false positive reads the table; 200 absent keys in a 2^27-bit filter of 50 keys have none.
      expect(store.reads).toBe(0);
      for (let index = 0; index < 50; index += 1) expect((await documents.find({ ...ada, entityId: `customer-${index}` }))?.fields).toEqual({ name: `n${index}` });
      // The 200 absent ones (misses are cached too) pushed the ten loaded documents out.
      expect(store.reads).toBe(50);
    });

    it('holds the most recently updated documents after the load, as many as its cache, and reads none of them', async () => {
      const { store, documents } = await storedTable(50);
      await documents.loadStored();
      for (let index = 40; index < 50; index += 1) expect((await documents.find({ ...ada, entityId: `customer-${index}` }))?.fields).toEqual({ name: `n${index}` });
      expect(store.reads).toBe(0);
    });

    it('does not take from the load an older copy of a document updated while it ran', async () => {
      const { store, documents } = await storedTable(5);
      let release: () => void = () => undefined;
      store.holdPages = new Promise<void>((resolve) => (release = resolve));
      const loading = documents.loadStored();
      await new Promise((resolve) => setImmediate(resolve));
      const customer = { ...ada, entityId: 'customer-1' };
      await documents.update(customer, setField({ email: 'new@example.com' }, T + 1));
      await documents.flush();
      // Push it out of the ten-entry cache (misses are cached too), then let the load's older copy arrive.
      for (let index = 0; index < 10; index += 1) await documents.find({ ...ada, entityId: `absent-${index}` });
      release();
      await loading;
      expect((await documents.find(customer))?.fields).toEqual({ name: 'n1', email: 'new@example.com' });
    });

    it('reads the table on every miss until the keys are loaded', async () => {
      const { store, documents } = await storedTable(3);
      expect(await documents.find({ ...ada, entityId: 'new' })).toBeNull();
      expect(await documents.find({ ...ada, entityId: 'customer-1' })).not.toBeNull();
      expect(store.reads).toBe(2);
      expect(documents.storedLoadState).toEqual({ state: 'loading', keys: 0, documents: 0 });
    });

    it('finds a document written after the load began, even once it has left the cache', async () => {
      const { store, documents } = await storedTable(20);
      const loading = documents.loadStored();
      await documents.update(grace, setField({ name: 'Grace' }, T));
      await loading;
      await documents.flush();
      // Push grace out of the ten-entry cache.
      for (let index = 0; index < 20; index += 1) await documents.find({ ...ada, entityId: `customer-${index}` });
      const reads = store.reads;
      expect((await documents.find(grace))?.fields).toEqual({ name: 'Grace' });
      expect(store.reads).toBe(reads + 1);
    });

    it('keeps reading the table when the keys cannot be loaded', async () => {
      const { store, documents } = await storedTable(3);
      store.storedAfter = () => Promise.reject(new Error('the database is down'));
      expect(await documents.loadStored()).toEqual({ state: 'failed', error: expect.any(Error) });
      expect(await documents.find({ ...ada, entityId: 'customer-2' })).not.toBeNull();
      expect(store.reads).toBe(1);
    });
  });
});
