import { Injectable } from '@nestjs/common';
import type { Principal } from '@ringfence/accounts';
import {
  type ModelDto,
  type ModelListResponseDto,
  type RpcTopic,
  type RpcTopicMap,
  type RuleCheckpoint,
  RpcTopics,
  type TrainModelAcceptedDto,
  type TrainModelRequestDto,
} from '@ringfence/contracts';
import { AppError } from '@ringfence/platform';
import { OwnerRequests } from '../owner-requests.service';

/**
 * The models API (ADR-0012): each route is one request to scoring, which owns the models
 * and trains them off the request path. Every call counts against the account's rate limit.
 */
@Injectable()
export class ModelsUseCase {
  constructor(private readonly owner: OwnerRequests) {}

  train(principal: Principal, body: TrainModelRequestDto, traceId: string): Promise<TrainModelAcceptedDto> {
    if (body.from !== undefined && body.to !== undefined && body.to <= body.from) throw new AppError('VALIDATION_FAILED', 'to: must be greater than from');
    return this.ask(principal, traceId, RpcTopics.trainModel, { ...body, author: principal.keyId });
  }

  async list(principal: Principal, checkpoint: RuleCheckpoint | undefined, traceId: string): Promise<ModelListResponseDto> {
    const { models } = await this.ask(principal, traceId, RpcTopics.readModels, checkpoint === undefined ? {} : { checkpoint });
    return { status: 200, timestamp: Date.now(), data: { models } };
  }

  async read(principal: Principal, modelId: string, traceId: string): Promise<ModelDto> {
    const { model } = await this.ask(principal, traceId, RpcTopics.readModel, { modelId });
    if (model === null) throw unknownModel(modelId);
    return model;
  }

  async activate(principal: Principal, modelId: string, traceId: string): Promise<ModelDto> {
    const { model } = await this.ask(principal, traceId, RpcTopics.activateModel, { modelId });
    if (model === null) throw unknownModel(modelId);
    if (!model.active) throw new AppError('CONFLICT', `model ${modelId} is ${model.status}: only a ready model can be activated`);
    return model;
  }

  private ask<R extends RpcTopic>(principal: Principal, traceId: string, topic: R, payload: RpcTopicMap[R]['request']): Promise<RpcTopicMap[R]['reply']> {
    return this.owner.ask(principal, traceId, 'models', topic, payload);
  }
}

const unknownModel = (modelId: string) => new AppError('NOT_FOUND', `no model ${modelId} in this data set`);
