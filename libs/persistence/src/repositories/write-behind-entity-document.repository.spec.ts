import { type EntityDocument, type EntityRef, mergeDocument } from '@ringfence/entities';
import type { DocumentWrite } from './typeorm-entity-document.repository';
import { type DocumentTable, WriteBehindEntityDocuments } from './write-behind-entity-document.repository';

const T = 1_763_800_000_000;
const ada: EntityRef = { accountId: 'acc_1', environment: 'test', kind: 'customer', entityId: 'ada' };

/** A table counting what reaches it. */
class CountingTable implements DocumentTable {
  readonly documents = new Map<string, EntityDocument>();
  reads = 0;
  statements = 0;
  failNextWrite = false;

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
    for (const { ref, document } of writes) this.documents.set(ref.entityId, document);
  }

  async keysAfter(after: EntityRef | undefined, limit: number): Promise<EntityRef[]> {
    return [...this.documents.keys()]
      .sort()
      .filter((entityId) => after === undefined || entityId > after.entityId)
      .slice(0, limit)
      .map((entityId) => ({ ...ada, entityId }));
  }
}

const setField = (fields: Record<string, unknown>, at: number) => (current: EntityDocument | null) => mergeDocument(current, fields, at);

const grace: EntityRef = { ...ada, entityId: 'grace' };

function setup(cachedDocuments = 100) {
  const store = new CountingTable();
  return { store, documents: new WriteBehindEntityDocuments(store, { cachedDocuments }) };
}

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

  describe('stored keys', () => {
    async function storedTable(count: number) {
      const store = new CountingTable();
      for (let index = 0; index < count; index += 1) store.documents.set(`customer-${index}`, { fields: { name: `n${index}` }, fieldTimestamps: { '/name': T } });
      const documents = new WriteBehindEntityDocuments(store, { cachedDocuments: 10, keyPageSize: 7 });
      return { store, documents };
    }

    it('answers a document never stored without reading the table once the keys are loaded, and still reads every stored one', async () => {
      const { store, documents } = await storedTable(50);
      expect(await documents.loadStoredKeys()).toEqual({ state: 'loaded', keys: 50, seconds: expect.any(Number) });

      for (let index = 0; index < 200; index += 1) expect(await documents.find({ ...ada, entityId: `new-${index}` })).toBeNull();
      // A false positive reads the table; 200 absent keys in a 2^27-bit filter of 50 keys have none.
      expect(store.reads).toBe(0);
      for (let index = 0; index < 50; index += 1) expect((await documents.find({ ...ada, entityId: `customer-${index}` }))?.fields).toEqual({ name: `n${index}` });
      expect(store.reads).toBe(50);
    });

    it('reads the table on every miss until the keys are loaded', async () => {
      const { store, documents } = await storedTable(3);
      expect(await documents.find({ ...ada, entityId: 'new' })).toBeNull();
      expect(await documents.find({ ...ada, entityId: 'customer-1' })).not.toBeNull();
      expect(store.reads).toBe(2);
      expect(documents.storedKeysState).toEqual({ state: 'loading', keys: 0 });
    });

    it('finds a document written after the load began, even once it has left the cache', async () => {
      const { store, documents } = await storedTable(20);
      const loading = documents.loadStoredKeys();
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
      store.keysAfter = () => Promise.reject(new Error('the database is down'));
      expect(await documents.loadStoredKeys()).toEqual({ state: 'failed', error: expect.any(Error) });
      expect(await documents.find({ ...ada, entityId: 'customer-2' })).not.toBeNull();
      expect(store.reads).toBe(1);
    });
  });
});
