import type { TypeOrmEntityDocumentRepository } from '../repositories/typeorm-entity-document.repository';
import type { EntityDocument, EntityDocumentRepository } from '@ringfence/entities';
import { buildEntityDocument, buildEntityRef } from '@ringfence/persistence/testing';
import { AWKWARD_TEXTS } from '@ringfence/persistence/testing';

const replaceWith = (next: EntityDocument) => () => next;
const changeNothing = () => null;
const countUp = (current: EntityDocument | null): EntityDocument => {
  const count = typeof current?.fields.count === 'number' ? current.fields.count : 0;
  return { fields: { count: count + 1 }, fieldTimestamps: { '/count': count + 1 } };
};

/** What any EntityDocumentRepository adapter must do; run against each database by its spec files. */
export function itBehavesLikeAnEntityDocumentRepository(repository: () => EntityDocumentRepository): void {
  it('answers null for an entity never stored', async () => {
    await expect(repository().find(buildEntityRef())).resolves.toBeNull();
  });

  it('creates the document when there is none, passing null to merge', async () => {
    const ref = buildEntityRef();
    const document = buildEntityDocument();
    const merge = jest.fn(replaceWith(document));

    await expect(repository().update(ref, merge)).resolves.toEqual(document);

    expect(merge).toHaveBeenCalledWith(null);
    await expect(repository().find(ref)).resolves.toEqual(document);
  });

  it('passes the stored document to merge and stores what it returns', async () => {
    const ref = buildEntityRef();
    const first = buildEntityDocument({ fields: { email: 'old@example.com' }, fieldTimestamps: { '/email': 1 } });
    const second = buildEntityDocument({ fields: { email: 'new@example.com' }, fieldTimestamps: { '/email': 2 } });
    await repository().update(ref, replaceWith(first));
    const merge = jest.fn(replaceWith(second));

    await expect(repository().update(ref, merge)).resolves.toEqual(second);

    expect(merge).toHaveBeenCalledWith(first);
    await expect(repository().find(ref)).resolves.toEqual(second);
  });

  it('writes nothing when merge returns null, and answers the unchanged document', async () => {
    const ref = buildEntityRef();
    const stored = buildEntityDocument();
    await repository().update(ref, replaceWith(stored));

    await expect(repository().update(ref, changeNothing)).resolves.toEqual(stored);

    await expect(repository().find(ref)).resolves.toEqual(stored);
  });

  it('creates nothing when merge returns null for an entity never stored', async () => {
    const ref = buildEntityRef();

    await expect(repository().update(ref, changeNothing)).resolves.toBeNull();

    await expect(repository().find(ref)).resolves.toBeNull();
  });

  it('keeps the same entity id of two accounts apart', async () => {
    const mine = buildEntityRef();
    const theirs = { ...mine, accountId: `${mine.accountId}_other` };
    const myDocument = buildEntityDocument({ fields: { owner: 'me' } });
    await repository().update(mine, replaceWith(myDocument));
    const merge = jest.fn(replaceWith(buildEntityDocument({ fields: { owner: 'them' } })));

    await repository().update(theirs, merge);

    expect(merge).toHaveBeenCalledWith(null);
    await expect(repository().find(mine)).resolves.toEqual(myDocument);
    await expect(repository().find(theirs)).resolves.toMatchObject({ fields: { owner: 'them' } });
  });

  it("keeps an account's test and live data apart", async () => {
    const live = buildEntityRef({ environment: 'live' });
    const test = { ...live, environment: 'test' as const };
    const liveDocument = buildEntityDocument({ fields: { data: 'live' } });
    await repository().update(live, replaceWith(liveDocument));

    await expect(repository().find(test)).resolves.toBeNull();
    await repository().update(test, replaceWith(buildEntityDocument({ fields: { data: 'sandbox' } })));

    await expect(repository().find(live)).resolves.toEqual(liveDocument);
    await expect(repository().find(test)).resolves.toMatchObject({ fields: { data: 'sandbox' } });
  });

  it('keeps entities of different kinds with the same id apart', async () => {
    const customer = buildEntityRef({ kind: 'customer' });
    const device = { ...customer, kind: 'device' as const };
    await repository().update(customer, replaceWith(buildEntityDocument({ fields: { kind: 'customer' } })));

    await expect(repository().find(device)).resolves.toBeNull();
  });

  it('stores nested fields, arrays and keys with dots, slashes or "__proto__" as given', async () => {
    const ref = buildEntityRef();
    const fields = JSON.parse('{"a.b":{"c/d":[1,{"e":null}]},"__proto__":{"polluted":true},"ünïcode":"✓"}') as Record<string, unknown>;
    const document = buildEntityDocument({ fields, fieldTimestamps: { '/a.b/c~1d': 1_700_000_000_000 } });

    await repository().update(ref, replaceWith(document));

    const stored = await repository().find(ref);
    expect(stored).toEqual(document);
    expect(Object.keys(stored?.fields ?? {})).toContain('__proto__');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('applies concurrent updates of a stored entity one after the other', async () => {
    const ref = buildEntityRef();
    await repository().update(ref, countUp);

    await Promise.all(Array.from({ length: 20 }, () => repository().update(ref, countUp)));

    await expect(repository().find(ref)).resolves.toMatchObject({ fields: { count: 21 } });
    // Twenty compare-and-set retries in a row on one embedded session: seconds when CI is loaded.
  }, 30_000);

  it('applies concurrent first updates of a new entity one after the other', async () => {
    const ref = buildEntityRef();

    await Promise.all(Array.from({ length: 20 }, () => repository().update(ref, countUp)));

    await expect(repository().find(ref)).resolves.toMatchObject({ fields: { count: 20 } });
    // The same twenty compare-and-set retries, on a new entity: a CI run took past jest's 5 s.
  }, 30_000);

  it('rethrows what merge throws and leaves the entity writable', async () => {
    const ref = buildEntityRef();
    const stored = buildEntityDocument();
    await repository().update(ref, replaceWith(stored));

    await expect(
      repository().update(ref, () => {
        throw new Error('merge failed');
      }),
    ).rejects.toThrow('merge failed');

    await expect(repository().update(ref, countUp)).resolves.toMatchObject({ fields: { count: 1 } });
  });
}

/** The sole writer's bulk write (`putMany`), on the same databases as the port's behaviour. */
export function itStoresManyWholeDocuments(create: () => TypeOrmEntityDocumentRepository): void {
  it('stores many whole documents in one putMany, inserting new ones and replacing stored ones', async () => {
    const repository = create();
    const [stored, fresh] = [buildEntityRef(), buildEntityRef()];
    await repository.update(stored, () => buildEntityDocument({ fields: { email: 'old@example.com' }, fieldTimestamps: { '/email': 1 } }));
    const replacement = buildEntityDocument({ fields: { email: 'new@example.com', name: 'Ada' }, fieldTimestamps: { '/email': 2, '/name': 2 } });
    const created = buildEntityDocument({ fields: { name: 'Grace' }, fieldTimestamps: { '/name': 3 } });

    await repository.putMany([
      { ref: stored, document: replacement },
      { ref: fresh, document: created },
    ]);

    expect(await repository.find(stored)).toEqual(replacement);
    expect(await repository.find(fresh)).toEqual(created);
  });

  it('keeps every character of the documents of one putMany', async () => {
    const repository = create();
    const writes = AWKWARD_TEXTS.map((text) => ({
      ref: buildEntityRef(),
      document: buildEntityDocument({ fields: { name: text, [text]: { nested: text } }, fieldTimestamps: { '/name': 1, [`/${text}`]: 2 } }),
    }));
    await repository.putMany(writes);

    for (const { ref, document } of writes) expect(await repository.find(ref)).toEqual(document);
  });

  it('lists the stored keys of every tenant in key order, one keyset page after another', async () => {
    const repository = create();
    const accountId = buildEntityRef().accountId;
    const refs = [
      buildEntityRef({ accountId, environment: 'test', entityId: 'b' }),
      buildEntityRef({ accountId, environment: 'live', kind: 'device', entityId: 'a' }),
      buildEntityRef({ accountId, environment: 'live', entityId: 'z' }),
      buildEntityRef({ accountId, environment: 'live', entityId: 'a' }),
      buildEntityRef({ accountId: `${accountId}-other`, entityId: 'a' }),
    ];
    await repository.putMany(refs.map((ref) => ({ ref, document: buildEntityDocument() })));

    const listed = [];
    for (let after = undefined, page = await repository.storedAfter(undefined, 2, null); page.length > 0; page = await repository.storedAfter(after, 2, null)) {
      expect(page.length).toBeLessThanOrEqual(2);
      listed.push(...page.map(({ ref }) => ref));
      after = page[page.length - 1].ref;
    }
    // Other tests' documents may share the table: only this test's are compared.
    expect(listed.filter((ref) => ref.accountId.startsWith(accountId))).toEqual([refs[3], refs[2], refs[1], refs[0], refs[4]].map(({ accountId: id, environment, kind, entityId }) => ({ accountId: id, environment, kind, entityId })));
  });

  it('lists with their documents only those updated from a time, and tells when the nth most recent was updated', async () => {
    const repository = create();
    const accountId = buildEntityRef().accountId;
    const [older, newer] = [buildEntityRef({ accountId, entityId: 'older' }), buildEntityRef({ accountId, entityId: 'newer' })];
    const [olderDocument, newerDocument] = [buildEntityDocument(), buildEntityDocument()];
    await repository.putMany([{ ref: older, document: olderDocument }]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await repository.putMany([{ ref: newer, document: newerDocument }]);

    const newest = await repository.nthMostRecentUpdate(1);
    expect(newest).toBeInstanceOf(Date);
    await expect(repository.nthMostRecentUpdate(Number.MAX_SAFE_INTEGER)).resolves.toBeNull();
    const mine = async (from: Date | null) => (await repository.storedAfter({ accountId, environment: 'live', kind: 'customer', entityId: '' }, 10, from)).filter(({ ref }) => ref.accountId === accountId);
    await expect(mine(newest)).resolves.toEqual([
      { ref: newer, document: newerDocument },
      { ref: older, document: undefined },
    ]);
    await expect(mine(null)).resolves.toEqual([
      { ref: newer, document: newerDocument },
      { ref: older, document: olderDocument },
    ]);
  });
}
