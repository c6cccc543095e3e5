import { Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { MessageBusController } from '@ringfence/bus';
import { FraudSubjectsRequest, type FraudSubjectsReply, type MessageEnvelope, RpcTopics } from '@ringfence/contracts';
import { FRAUD_SUBJECTS_QUERY, type FraudSubjectsQuery } from '@ringfence/labels';
import { validatedRequestHandler } from '@ringfence/service-runtime';

/**
 * Answers `ringfence.rpc.labelling.fraud-subjects.v1` (GET /v2/stats/overview's known fraud):
 * the tenant's subjects labelled FRAUDSTER. A review is stored before it is answered, so the
 * read needs no barrier to see every label answered before it.
 */
@MessageBusController()
export class FraudSubjectsHandler {
  private readonly validated = validatedRequestHandler(FraudSubjectsRequest, ({ accountId, environment, payload }) =>
    this.query.fraudSubjects(accountId, environment, payload.limit),
  );

  constructor(@Inject(FRAUD_SUBJECTS_QUERY) private readonly query: FraudSubjectsQuery) {}

  @MessagePattern(RpcTopics.fraudSubjects, { group: 'labelling' })
  answer(@Payload() message: MessageEnvelope<unknown>): Promise<FraudSubjectsReply> {
    return this.validated(message);
  }
}
