import { Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { MessageBusController, type MessagePatternExtras } from '@ringfence/bus';
import { type MessageEnvelope, ReadEntityDocumentsRequest, type ReadEntityDocumentsReply, RpcTopics, StateGroups } from '@ringfence/contracts';
import { ENTITY_DOCUMENT_REPOSITORY, type EntityDocumentRepository } from '@ringfence/entities';
import { validatedRequestHandler } from '@ringfence/service-runtime';

/** Reads answer once the `ingestion` group has handled the account's earlier events (read your writes). */
const ENTITY_READS: MessagePatternExtras = { group: 'ingestion', consistentWith: [StateGroups.ingestion] };

/**
 * Answers reads of the entity store that ingestion keeps (responder group `ingestion`): the
 * store is ingestion's alone, and scoring asks here for a checkpoint's subject and the entities
 * it refers to instead of reading the table.
 */
@MessageBusController()
export class EntityDocumentsResponder {
  // Each request's validated handler, made once rather than as closures per message.
  private readonly validatedRead = validatedRequestHandler(ReadEntityDocumentsRequest, (valid) => this.read(valid));

  constructor(@Inject(ENTITY_DOCUMENT_REPOSITORY) private readonly documents: EntityDocumentRepository) {}

  @MessagePattern(RpcTopics.readEntityDocuments, ENTITY_READS)
  answerRead(@Payload() message: MessageEnvelope<unknown>): Promise<ReadEntityDocumentsReply> {
    return this.validatedRead(message);
  }

  async read({ accountId, environment, payload }: MessageEnvelope<ReadEntityDocumentsRequest>): Promise<ReadEntityDocumentsReply> {
    const documents = await Promise.all(payload.refs.map(({ kind, entityId }) => this.documents.find({ accountId, environment, kind, entityId })));
    return { documents };
  }
}
