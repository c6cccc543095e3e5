import { Inject } from '@nestjs/common';
import { EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import { type MessageBus, MessageBusController, type MessagePatternExtras } from '@ringfence/bus';
import {
  EventTopics,
  type MessageEnvelope,
  ModelActivatedEvent,
  type ModelDto,
  type ModelReply,
  ModelRequest,
  type ModelsReply,
  ReadModelsRequest,
  RpcTopics,
  type TrainModelAcceptedDto,
  TrainModelRequest,
} from '@ringfence/contracts';
import { type Logger, newEventId } from '@ringfence/platform';
import { MODEL_REPOSITORY, type ModelRecord, type ModelRepository, type RuleTenant } from '@ringfence/scoring-engine';
import { MESSAGE_BUS, ROOT_LOGGER, validatedEventHandler, validatedRequestHandler } from '@ringfence/service-runtime';
import { DECISION_RECORDS_DEPENDENCY } from '../decisions/decision-records';
import { ModelBook } from './model-book';
import { ModelTrainer } from './model-trainer';
import { MODEL_BOOK_GROUP } from './models-groups';

const MODELS: MessagePatternExtras = { group: 'scoring' };

const tenantOf = ({ accountId, environment }: MessageEnvelope<unknown>): RuleTenant => ({ accountId, environment });

/** The API's form of a stored model: ISO time, progress and error only when there are. */
export function modelDto(model: ModelRecord): ModelDto {
  const { progress, error, createdAt, ...rest } = model;
  return { ...rest, createdAt: new Date(createdAt).toISOString(), ...(progress === null ? {} : { progress }), ...(error === null ? {} : { error }) };
}

/**
 * The models API's requests (ADR-0012), answered by scoring, which owns the models: train
 * (recorded, then trained off the request path by `ModelTrainer`), read, and activate (applied
 * to this instance's model book at once, so its next checkpoint is scored by the model, and
 * published on `modelActivated`, which every instance's model book follows).
 */
@MessageBusController()
export class ModelsHandler {
  constructor(
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(MODEL_REPOSITORY) private readonly models: ModelRepository,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
    private readonly book: ModelBook,
    private readonly trainer: ModelTrainer,
  ) {}

  // Training learns from every decision made before it was asked for.
  @MessagePattern(RpcTopics.trainModel, { ...MODELS, consistentWith: [DECISION_RECORDS_DEPENDENCY] })
  trainModel(@Payload() message: MessageEnvelope<unknown>): Promise<TrainModelAcceptedDto> {
    return validatedRequestHandler(TrainModelRequest, (valid) => this.trainer.start(valid))(message);
  }

  @MessagePattern(RpcTopics.readModels, MODELS)
  readModels(@Payload() message: MessageEnvelope<unknown>): Promise<ModelsReply> {
    return validatedRequestHandler(ReadModelsRequest, async (valid) => {
      const { checkpoint } = valid.payload;
      const models = await this.models.list(tenantOf(valid));
      return { models: models.filter((model) => checkpoint === undefined || model.checkpoint === checkpoint).map(modelDto) };
    })(message);
  }

  @MessagePattern(RpcTopics.readModel, MODELS)
  readModel(@Payload() message: MessageEnvelope<unknown>): Promise<ModelReply> {
    return validatedRequestHandler(ModelRequest, async (valid) => {
      const model = await this.models.find(tenantOf(valid), valid.payload.modelId);
      return { model: model === null ? null : modelDto(model) };
    })(message);
  }

  @MessagePattern(RpcTopics.activateModel, MODELS)
  activateModel(@Payload() message: MessageEnvelope<unknown>): Promise<ModelReply> {
    return validatedRequestHandler(ModelRequest, (valid) => this.activate(valid))(message);
  }

  @EventPattern(EventTopics.modelActivated, { group: MODEL_BOOK_GROUP })
  modelActivated(@Payload() message: MessageEnvelope<unknown>): Promise<void> {
    return validatedEventHandler(EventTopics.modelActivated, ModelActivatedEvent, this.logger, (valid) => this.book.refresh(tenantOf(valid), valid.payload.checkpoint))(message);
  }

  private async activate(message: MessageEnvelope<ModelRequest>): Promise<ModelReply> {
    const tenant = tenantOf(message);
    const model = await this.models.activate(tenant, message.payload.modelId);
    if (model === null || !model.active) return { model: model === null ? null : modelDto(model) };
    await this.book.refresh(tenant, model.checkpoint);
    await this.bus.publish(EventTopics.modelActivated, {
      eventId: newEventId(),
      accountId: tenant.accountId,
      environment: message.environment,
      subjectId: `model:${model.checkpoint}`,
      acceptedAt: Date.now(),
      traceId: message.traceId,
      payload: { modelId: model.modelId, checkpoint: model.checkpoint },
    });
    return { model: modelDto(model) };
  }
}
