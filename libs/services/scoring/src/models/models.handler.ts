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
  type RuleCheckpoint,
  RpcTopics,
  type TrainModelAcceptedDto,
  TrainModelRequest,
} from '@ringfence/contracts';
import { type Logger, newEventId } from '@ringfence/platform';
import { MODEL_REPOSITORY, type ModelRecord, type ModelRepository, type RuleTenant } from '@ringfence/scoring-engine';
import { MESSAGE_BUS, ROOT_LOGGER, validatedEventHandler, validatedRequestHandler } from '@ringfence/service-runtime';
import { DECISION_RECORDS_DEPENDENCY } from '../decisions/decision-records';
import { DEFAULT_MODELS, type DefaultModels } from './default-models';
import { ModelBook } from './model-book';
import { shippedCheckpointOf, shippedModelDtos } from './shipped-models';
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
    @Inject(DEFAULT_MODELS) private readonly defaults: DefaultModels,
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
      const trained = models.filter((model) => checkpoint === undefined || model.checkpoint === checkpoint).map(modelDto);
      // The shipped defaults after the trained models (newest first): they are older than any.
      return { models: [...trained, ...shippedModelDtos(this.defaults, models, checkpoint)] };
    })(message);
  }

  @MessagePattern(RpcTopics.readModel, MODELS)
  readModel(@Payload() message: MessageEnvelope<unknown>): Promise<ModelReply> {
    return validatedRequestHandler(ModelRequest, async (valid) => {
      const shipped = shippedCheckpointOf(valid.payload.modelId, this.defaults);
      if (shipped !== undefined) return { model: await this.shippedModel(tenantOf(valid), shipped) };
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

  /** The shipped default of a checkpoint as the API shows it for this tenant (active or not); null when none ships. */
  private async shippedModel(tenant: RuleTenant, checkpoint: RuleCheckpoint): Promise<ModelDto | null> {
    return shippedModelDtos(this.defaults, await this.models.list(tenant), checkpoint)[0] ?? null;
  }

  /**
   * Activating a trained model makes it score its checkpoint; activating `default-<checkpoint>`
   * goes back to the shipped default: no trained model of the checkpoint is active any more.
   */
  private async activate(message: MessageEnvelope<ModelRequest>): Promise<ModelReply> {
    const tenant = tenantOf(message);
    const shipped = shippedCheckpointOf(message.payload.modelId, this.defaults);
    if (shipped !== undefined) {
      await this.models.deactivate(tenant, shipped);
      await this.applied(message, message.payload.modelId, shipped);
      return { model: await this.shippedModel(tenant, shipped) };
    }
    const model = await this.models.activate(tenant, message.payload.modelId);
    if (model === null || !model.active) return { model: model === null ? null : modelDto(model) };
    await this.applied(message, model.modelId, model.checkpoint);
    return { model: modelDto(model) };
  }

  /** Applied here at once, then published for the other instances' model books. */
  private async applied(message: MessageEnvelope<ModelRequest>, modelId: string, checkpoint: RuleCheckpoint): Promise<void> {
    const tenant = tenantOf(message);
    await this.book.refresh(tenant, checkpoint);
    await this.bus.publish(EventTopics.modelActivated, {
      eventId: newEventId(),
      accountId: tenant.accountId,
      environment: message.environment,
      subjectId: `model:${checkpoint}`,
      acceptedAt: Date.now(),
      traceId: message.traceId,
      payload: { modelId, checkpoint },
    });
  }
}
