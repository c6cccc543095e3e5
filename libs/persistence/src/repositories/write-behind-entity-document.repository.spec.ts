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
});
