import type { INestMicroservice } from '@nestjs/common';
import type { RespondOptions, MessageBus } from '@ringfence/bus';
import { startBusControllers } from '@ringfence/bus/testing';
import { MAX_ENTITY_DOCUMENTS_PER_READ, type MessageEnvelope, type ReadEntityDocumentsReply, RpcTopics, StateGroups } from '@ringfence/contracts';
import { ENTITY_DOCUMENT_REPOSITORY, type EntityDocument, type EntityDocumentRepository, type EntityRef } from '@ringfence/entities';
import { EntityDocumentsResponder } from './entity-documents.responder';

const running: INestMicroservice[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((microservice) => microservice.close()));
});

const customer: EntityDocument = { fields: { email: 'a@example.com' }, fieldTimestamps: { email: 1 } };

/** The entity store of one tenant's customer `c1`, recording every read. */
function store() {
  const reads: EntityRef[] = [];
  const repository: EntityDocumentRepository = {
    find: async (ref) => {
      reads.push(ref);
      return ref.accountId === 'acc_1' && ref.kind === 'customer' && ref.entityId === 'c1' ? customer : null;
    },
    update: async () => {
      throw new Error('a read never writes');
    },
  };
  return { repository, reads };
}

async function responder(repository: EntityDocumentRepository) {
  const responders = new Map<string, { options: RespondOptions; handler: (message: MessageEnvelope<unknown>) => Promise<unknown> }>();
  const bus = {
    handle: (topic: string, options: RespondOptions, handler: (message: MessageEnvelope<unknown>) => Promise<unknown>) => responders.set(topic, { options, handler }),
    start: async () => undefined,
    stop: async () => undefined,
  } as unknown as MessageBus;
  running.push(await startBusControllers(bus, { controllers: [EntityDocumentsResponder], providers: [{ provide: ENTITY_DOCUMENT_REPOSITORY, useValue: repository }] }));
  return responders;
}

const read = (payload: unknown): MessageEnvelope<unknown> => ({ eventId: 'e1', accountId: 'acc_1', environment: 'live', subjectId: 'c1', acceptedAt: 1, traceId: 't', payload });

describe(EntityDocumentsResponder.name, () => {
  it('answers entity reads in the ingestion group, once the ingestion consumer has handled the account’s earlier events', async () => {
    const responders = await responder(store().repository);

    expect([...responders.keys()]).toEqual([RpcTopics.readEntityDocuments]);
    expect(responders.get(RpcTopics.readEntityDocuments)!.options).toEqual({ group: 'ingestion', consistentWith: [StateGroups.ingestion] });
  });

  it('answers each asked entity of the tenant in the order asked, null for one never stored', async () => {
    const { repository, reads } = store();
    const responders = await responder(repository);

    const reply = (await responders.get(RpcTopics.readEntityDocuments)!.handler(
      read({ refs: [{ kind: 'order', entityId: 'o1' }, { kind: 'customer', entityId: 'c1' }] }),
    )) as ReadEntityDocumentsReply;

    expect(reply).toEqual({ documents: [null, customer] });
    expect(reads).toEqual([
      { accountId: 'acc_1', environment: 'live', kind: 'order', entityId: 'o1' },
      { accountId: 'acc_1', environment: 'live', kind: 'customer', entityId: 'c1' },
    ]);
  });

  it('refuses an unknown kind or too many entities before reading anything', async () => {
    const { repository, reads } = store();
    const responders = await responder(repository);
    const handler = responders.get(RpcTopics.readEntityDocuments)!.handler;

    await expect(handler(read({ refs: [{ kind: 'planet', entityId: 'x' }] }))).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    const tooMany = Array.from({ length: MAX_ENTITY_DOCUMENTS_PER_READ + 1 }, (_, index) => ({ kind: 'order', entityId: `o${index}` }));
    await expect(handler(read({ refs: tooMany }))).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(reads).toEqual([]);
  });
});
