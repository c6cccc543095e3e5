import { type EntityDocument, type EntityDocumentRepository, type EntityRef, mergeDocument } from '@ringfence/entities';
import { WriteBehindEntityDocuments } from './write-behind-entity-document.repository';

const T = 1_763_800_000_000;
const ada: EntityRef = { accountId: 'acc_1', environment: 'test', kind: 'customer', entityId: 'ada' };

/** A store with the port's compare-and-set semantics, counting what reaches it. */
class CountingStore implements EntityDocumentRepository {
  readonly documents = new Map<string, EntityDocument>();
  reads = 0;
  writes = 0;
  failNextWrite = false;

  async find(ref: EntityRef): Promise<EntityDocument | null> {
    this.reads += 1;
    return this.documents.get(ref.entityId) ?? null;
  }

  async update(ref: EntityRef, merge: (current: EntityDocument | null) => EntityDocument | null): Promise<EntityDocument | null> {
    const current = this.documents.get(ref.entityId) ?? null;
    const next = merge(current);
    if (next === null) return current;
    if (this.failNextWrite) {
      this.failNextWrite = false;
      throw new Error('the database is down');
    }
    this.writes += 1;
    this.documents.set(ref.entityId, next);
    return next;
  }
}

const setField = (fields: Record<string, unknown>, at: number) => (current: EntityDocument | null) => mergeDocument(current, fields, at);

function setup(cachedDocuments = 100) {
  const store = new CountingStore();
  return { store, documents: new WriteBehindEntityDocuments(store, { cachedDocuments }) };
}

describe(WriteBehindEntityDocuments.name, () => {
  it('shows an update to the next read at once, and writes each changed document once per flush', async () => {
    const { store, documents } = setup();
    await documents.update(ada, setField({ email: 'ada@example.com' }, T));
    await documents.update(ada, setField({ name: 'Ada' }, T + 1));

    expect((await documents.find(ada))?.fields).toEqual({ email: 'ada@example.com', name: 'Ada' });
    expect(store.writes).toBe(0);
    await documents.flush();
    expect(store.writes).toBe(1);
    expect(store.documents.get('ada')?.fields).toEqual({ email: 'ada@example.com', name: 'Ada' });
    expect(documents.unwritten).toBe(0);
  });

  it('replays its merges over what another writer stored meanwhile, instead of overwriting it', async () => {
    const { store, documents } = setup(0);
    await documents.update(ada, setField({ email: 'ada@example.com' }, T));
    store.documents.set('ada', mergeDocument(null, { telephone: '+447700900123' }, T + 5)!);
    await documents.flush();
    expect(store.documents.get('ada')?.fields).toEqual({ email: 'ada@example.com', telephone: '+447700900123' });
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
    const write = store.update.bind(store);
    store.update = async (ref, merge) => {
      await documents.update(ada, setField({ name: 'Ada' }, T + 1));
      return write(ref, merge);
    };
    await documents.flush();
    expect(documents.unwritten).toBe(1);
    store.update = write;
    await documents.flush();
    expect(store.documents.get('ada')?.fields).toEqual({ email: 'ada@example.com', name: 'Ada' });
  });

  it('applies concurrent updates of one document one after the other', async () => {
    const { documents } = setup();
    await Promise.all(Array.from({ length: 20 }, (_, n) => documents.update(ada, setField({ [`f${n}`]: n }, T + n))));
    expect(Object.keys((await documents.find(ada))?.fields ?? {})).toHaveLength(20);
  });

  it('serves written documents from memory when caching, and from the store when not', async () => {
    const cached = setup(100);
    await cached.documents.update(ada, setField({ email: 'ada@example.com' }, T));
    await cached.documents.flush();
    const readsBefore = cached.store.reads;
    await cached.documents.find(ada);
    expect(cached.store.reads).toBe(readsBefore);

    const uncached = setup(0);
    await uncached.documents.update(ada, setField({ email: 'ada@example.com' }, T));
    await uncached.documents.flush();
    const before = uncached.store.reads;
    expect((await uncached.documents.find(ada))?.fields).toEqual({ email: 'ada@example.com' });
    expect(uncached.store.reads).toBe(before + 1);
  });
});
