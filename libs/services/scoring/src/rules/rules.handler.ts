import { Inject } from '@nestjs/common';
import { Ctx, EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import { type MessageBus, MessageBusContext, MessageBusController, type MessagePatternExtras } from '@ringfence/bus';
import {
  BacktestRulesRequest,
  type BacktestRulesReply,
  DisableRuleRequest,
  EventTopics,
  MAX_RULES_PER_CHECKPOINT,
  type MessageEnvelope,
  ReadRuleRequest,
  type ReadRuleReply,
  ReadRulesRequest,
  type ReadRulesReply,
  RuleChangedEvent,
  type RuleRequestDto,
  RpcTopics,
  SaveRuleRequest,
  type SaveRuleReply,
  ValidateRuleRequest,
  type ValidateRuleReply,
} from '@ringfence/contracts';
import { AppError, type Logger, newEventId } from '@ringfence/platform';
import { RULE_REPOSITORY, type RuleDefinition, expressionProblem, type RuleEnvironments, type RuleRepository, type RuleTenant, type RuleVersion } from '@ringfence/scoring-engine';
import { MESSAGE_BUS, ROOT_LOGGER, validatedEventHandler, validatedRequestHandler } from '@ringfence/service-runtime';
import { DECISION_RECORDS_DEPENDENCY, DecisionRecords } from '../decisions/decision-records';
import { RuleBacktest } from './rule-backtest';
import { RuleBook } from './rule-book';
import { RULE_ENVIRONMENTS } from './rule-environment.provider';
import { RULE_BOOK_GROUP } from './rules-groups';

const RULES: MessagePatternExtras = { group: 'scoring' };

const tenantOf = ({ accountId, environment }: MessageEnvelope<unknown>): RuleTenant => ({ accountId, environment });

/**
 * The rules API's requests (ADR-0011), answered by scoring, which owns the rules: a save
 * is type-checked, stored as a new version, applied to this instance's rule book at once (the
 * next checkpoint here sees it) and published on `ruleSaved`, which every instance's rule book
 * follows (group per instance, see rules-groups.ts).
 */
@MessageBusController()
export class RulesHandler {
  constructor(
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(RULE_REPOSITORY) private readonly rules: RuleRepository,
    @Inject(RULE_ENVIRONMENTS) private readonly environments: RuleEnvironments,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
    private readonly book: RuleBook,
    private readonly backtests: RuleBacktest,
    private readonly decisions: DecisionRecords,
  ) {}

  @MessagePattern(RpcTopics.saveRule, RULES)
  saveRule(@Payload() message: MessageEnvelope<unknown>): Promise<SaveRuleReply> {
    return validatedRequestHandler(SaveRuleRequest, (valid) => this.save(valid))(message);
  }

  @MessagePattern(RpcTopics.disableRule, RULES)
  disableRule(@Payload() message: MessageEnvelope<unknown>): Promise<SaveRuleReply> {
    return validatedRequestHandler(DisableRuleRequest, (valid) => this.disable(valid))(message);
  }

  @MessagePattern(RpcTopics.readRules, { ...RULES, consistentWith: [DECISION_RECORDS_DEPENDENCY] })
  readRules(@Payload() message: MessageEnvelope<unknown>): Promise<ReadRulesReply> {
    return validatedRequestHandler(ReadRulesRequest, async (valid) => {
      const tenant = tenantOf(valid);
      const [rules, hits] = await Promise.all([this.rules.currentVersions(tenant, valid.payload.checkpoint), this.decisions.ruleHits(tenant, Date.now())]);
      const listed = new Set(rules.map((rule) => rule.ruleId));
      return { rules, hits: hits.filter((hit) => listed.has(hit.ruleId)) };
    })(message);
  }

  @MessagePattern(RpcTopics.readRule, { ...RULES, consistentWith: [DECISION_RECORDS_DEPENDENCY] })
  readRule(@Payload() message: MessageEnvelope<unknown>): Promise<ReadRuleReply> {
    return validatedRequestHandler(ReadRuleRequest, async (valid) => {
      const tenant = tenantOf(valid);
      const [versions, hits] = await Promise.all([this.rules.versions(tenant, valid.payload.ruleId), this.decisions.ruleHits(tenant, Date.now())]);
      return { versions, hits: hits.find((hit) => hit.ruleId === valid.payload.ruleId) ?? null };
    })(message);
  }

  @MessagePattern(RpcTopics.validateRule, RULES)
  validateRule(@Payload() message: MessageEnvelope<unknown>): Promise<ValidateRuleReply> {
    return validatedRequestHandler(ValidateRuleRequest, async (valid) => this.environments.of(valid.payload.checkpoint).check(valid.payload.expression))(message);
  }

  @MessagePattern(RpcTopics.backtestRules, { ...RULES, consistentWith: [DECISION_RECORDS_DEPENDENCY] })
  backtestRules(@Payload() message: MessageEnvelope<unknown>, @Ctx() context: MessageBusContext): Promise<BacktestRulesReply> {
    // ADR-0016: the backtest stops once nobody waits for its answer.
    return validatedRequestHandler(BacktestRulesRequest, (valid) => this.backtests.run(valid, context.getSignal()))(message);
  }

  @EventPattern(EventTopics.ruleSaved, { group: RULE_BOOK_GROUP })
  ruleSaved(@Payload() message: MessageEnvelope<unknown>): Promise<void> {
    return validatedEventHandler(EventTopics.ruleSaved, RuleChangedEvent, this.logger, async (valid) => {
      this.book.apply(tenantOf(valid), valid.payload.rule);
    })(message);
  }

  private async save(message: MessageEnvelope<SaveRuleRequest>): Promise<SaveRuleReply> {
    const { ruleId, rule, author, actor } = message.payload;
    const tenant = tenantOf(message);
    const definition = this.checkedDefinition(rule);
    if (definition.state !== 'disabled') this.assertRoomFor(tenant, definition, ruleId);
    const saved =
      ruleId === undefined ? await this.rules.create(tenant, definition, author, actor) : await this.rules.addVersion(tenant, ruleId, definition, author, actor);
    if (saved === null) return { rule: null };
    await this.publish(message, saved);
    return { rule: saved };
  }

  private async disable(message: MessageEnvelope<DisableRuleRequest>): Promise<SaveRuleReply> {
    const tenant = tenantOf(message);
    const versions = await this.rules.versions(tenant, message.payload.ruleId);
    const current = versions.at(-1);
    if (current === undefined) return { rule: null };
    const { name, description, checkpoint, expression, action, transactionOptimisation } = current;
    const definition = { name, description, checkpoint, expression, action, state: 'disabled' as const, ...(transactionOptimisation ? { transactionOptimisation } : {}) };
    const saved = await this.rules.addVersion(tenant, current.ruleId, definition, message.payload.author, message.payload.actor);
    if (saved === null) return { rule: null };
    await this.publish(message, saved);
    return { rule: saved };
  }

  /** A definition whose expression type-checks; a 400 naming `expression` otherwise. */
  private checkedDefinition(rule: RuleRequestDto): RuleDefinition {
    const check = this.environments.of(rule.checkpoint).check(rule.expression);
    if (!check.valid) throw new AppError('VALIDATION_FAILED', expressionProblem('expression', check.errors[0]));
    const optimisation = rule.transactionOptimisation;
    if (optimisation !== undefined && rule.checkpoint !== 'pspBeforeAuth') {
      throw new AppError('VALIDATION_FAILED', 'transactionOptimisation: only pspBeforeAuth rules give 3-D Secure advice');
    }
    return {
      name: rule.name,
      description: rule.description ?? '',
      checkpoint: rule.checkpoint,
      expression: rule.expression,
      action: rule.action,
      state: rule.state,
      ...(optimisation === undefined || (optimisation.exemption === undefined && optimisation.threeDSChallengePreference === undefined)
        ? {}
        : { transactionOptimisation: { ...optimisation } }),
    };
  }

  private assertRoomFor(tenant: RuleTenant, definition: RuleDefinition, ruleId: number | undefined): void {
    const live = this.book.rulesOf(tenant, definition.checkpoint).filter((compiled) => compiled.rule.ruleId !== ruleId);
    if (live.length >= MAX_RULES_PER_CHECKPOINT) {
      throw new AppError('VALIDATION_FAILED', `checkpoint: the ${definition.checkpoint} checkpoint already has ${MAX_RULES_PER_CHECKPOINT} rules that are not disabled; disable one first`);
    }
  }

  /** Applied here at once, then published for the other instances (and the audit feed). */
  private async publish(message: MessageEnvelope<unknown>, saved: RuleVersion): Promise<void> {
    const tenant = tenantOf(message);
    this.book.apply(tenant, saved);
    await this.bus.publish(EventTopics.ruleSaved, {
      eventId: newEventId(),
      accountId: tenant.accountId,
      environment: message.environment,
      subjectId: `rule:${saved.ruleId}`,
      acceptedAt: Date.now(),
      traceId: message.traceId,
      payload: { rule: saved },
    });
  }
}
