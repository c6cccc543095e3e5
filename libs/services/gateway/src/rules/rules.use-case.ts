import { Injectable } from '@nestjs/common';
import { type Principal, actorOf } from '@ringfence/accounts';
import {
  type BacktestRequestDto,
  type BacktestResponseDto,
  type RpcTopic,
  type RpcTopicMap,
  type RuleCheckpoint,
  type RuleDto,
  type RuleHitsMessage,
  type RuleListResponseDto,
  type RuleRequestDto,
  type RuleVersionMessage,
  type RuleWithVersionsResponseDto,
  RpcTopics,
  type ValidateRuleRequestDto,
  type ValidateRuleResponseDto,
} from '@ringfence/contracts';
import { AppError } from '@ringfence/platform';
import { OwnerRequests } from '../owner-requests.service';

/** The wire form of a rule version: ISO times; a suspended version shows `state: "suspended"` (ADR-0016). */
export function ruleDto(rule: RuleVersionMessage): RuleDto {
  const { suspension, ...version } = rule;
  const shown: RuleDto = { ...version, author: rule.author ?? `key ${rule.createdBy}`, createdAt: new Date(rule.createdAt).toISOString() };
  if (suspension === undefined) return shown;
  return { ...shown, state: 'suspended', suspension: { suspendedAt: new Date(suspension.suspendedAt).toISOString(), reason: suspension.reason } };
}

/**
 * The rules API (ADR-0011): each route is one request to scoring, which owns the rules.
 * Writes and reads count against the account's rate limit like every route; a write over the
 * limit is not applied (a rule change is not ingested data).
 */
@Injectable()
export class RulesUseCase {
  constructor(private readonly owner: OwnerRequests) {}

  async create(principal: Principal, rule: RuleRequestDto, traceId: string): Promise<RuleDto> {
    const { rule: saved } = await this.ask(principal, traceId, RpcTopics.saveRule, { rule, author: principal.keyId, actor: actorOf(principal) });
    if (saved === null) throw new Error('scoring saved no rule on create');
    return ruleDto(saved);
  }

  async update(principal: Principal, ruleId: number, rule: RuleRequestDto, traceId: string): Promise<RuleDto> {
    const { rule: saved } = await this.ask(principal, traceId, RpcTopics.saveRule, { ruleId, rule, author: principal.keyId, actor: actorOf(principal) });
    if (saved === null) throw unknownRule(ruleId);
    return ruleDto(saved);
  }

  async disable(principal: Principal, ruleId: number, traceId: string): Promise<RuleDto> {
    const { rule: saved } = await this.ask(principal, traceId, RpcTopics.disableRule, { ruleId, author: principal.keyId, actor: actorOf(principal) });
    if (saved === null) throw unknownRule(ruleId);
    return ruleDto(saved);
  }

  async list(principal: Principal, checkpoint: RuleCheckpoint | undefined, traceId: string): Promise<RuleListResponseDto> {
    const { rules, hits } = await this.ask(principal, traceId, RpcTopics.readRules, checkpoint === undefined ? {} : { checkpoint });
    const hitsById = new Map(hits.map((hit) => [hit.ruleId, hit]));
    return { status: 200, timestamp: Date.now(), data: { rules: rules.map((rule) => withHits(ruleDto(rule), hitsById.get(rule.ruleId))) } };
  }

  async read(principal: Principal, ruleId: number, traceId: string): Promise<RuleWithVersionsResponseDto> {
    const { versions, hits } = await this.ask(principal, traceId, RpcTopics.readRule, { ruleId });
    const current = versions.at(-1);
    if (current === undefined) throw unknownRule(ruleId);
    return { status: 200, timestamp: Date.now(), data: { rule: withHits(ruleDto(current), hits ?? undefined), versions: versions.map(ruleDto) } };
  }

  validate(principal: Principal, body: ValidateRuleRequestDto, traceId: string): Promise<ValidateRuleResponseDto> {
    return this.ask(principal, traceId, RpcTopics.validateRule, body);
  }

  /** `ended` aborts when the client goes away: the backtest stops with it (ADR-0016; in-process only, Kafka carries the deadline). */
  async backtest(principal: Principal, body: BacktestRequestDto, traceId: string, ended: AbortSignal): Promise<BacktestResponseDto> {
    // An end not given is the data set's (scoring reads it): only two given ends can be out of order here.
    if (body.from !== undefined && body.to !== undefined && body.to <= body.from) throw new AppError('VALIDATION_FAILED', 'to: must be greater than from');
    const data = await this.owner.ask(principal, traceId, 'rules', RpcTopics.backtestRules, body, ended);
    return { status: 200, timestamp: Date.now(), data };
  }

  async decision(principal: Principal, scoreId: string, traceId: string): Promise<{ status: number; timestamp: number; data: Record<string, unknown> }> {
    const { decision } = await this.ask(principal, traceId, RpcTopics.readDecision, { scoreId });
    if (decision === null) throw new AppError('NOT_FOUND', `no decision ${scoreId} in this data set`);
    return { status: 200, timestamp: Date.now(), data: decision };
  }

  private ask<R extends RpcTopic>(principal: Principal, traceId: string, topic: R, payload: RpcTopicMap[R]['request']): Promise<RpcTopicMap[R]['reply']> {
    return this.owner.ask(principal, traceId, 'rules', topic, payload);
  }
}

/** A rule's current version with its hits (none counted as zero). */
function withHits(rule: RuleDto, hits: RuleHitsMessage | undefined): RuleDto {
  return { ...rule, hits: { last24h: hits?.last24h ?? 0, last30d: hits?.last30d ?? 0, total: hits?.total ?? 0 }, lastHitAt: hits?.lastHitAt ?? null };
}

const unknownRule = (ruleId: number) => new AppError('NOT_FOUND', `no rule ${ruleId} in this data set`);
