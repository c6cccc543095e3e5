import { Inject, Injectable } from '@nestjs/common';
import type { BacktestRulesRequest, BacktestRulesReply, MessageEnvelope } from '@ringfence/contracts';
import { AppError, type RingfenceConfig } from '@ringfence/platform';
import {
  type CompiledRule,
  type StoredDecisionRecord,
  RULE_REPOSITORY,
  type RuleEnvironments,
  type RuleRepository,
  type RuleVersion,
  decide,
  evaluateRules,
  expressionProblem,
  featuresFromRecord,
} from '@ringfence/scoring-engine';
import { RINGFENCE_CONFIG } from '@ringfence/service-runtime';
import { DecisionRecords } from '../decisions/decision-records';
import type { RecordedDecision } from '../decisions/recorded-decision';
import { SubjectVerdicts, VerdictMemo } from '../decisions/subject-verdicts';
import { BacktestBounds, backtestDurationMs } from './backtest-bounds';
import { BacktestTally } from './backtest-tally';
import { RULE_ENVIRONMENTS } from './rule-environment.provider';
import { ruleBudgetsOf } from './rule-budgets';

/** Decision records read per page: memory stays bounded however long the period is. */
const PAGE_SIZE = 500;

/**
 * A backtest (ADR-0011): the given rules, drafts or stored ones, evaluated over the
 * tenant's decision records of the checkpoint in [from, to), exactly over what each decision
 * recorded (its rule context and the other sources' verdicts), page by page. `after` is the
 * action decided again with the tried rules in place of the rules of the time; "fraud" and
 * "genuine" are what the labels and disputes say now, read as training reads them (the
 * labelling policy, `labelling-policy.ts`: at the PSP checkpoints the payment itself), so a
 * rule's labelled precision and recall and a model's held-out metrics count the same fraud.
 * Nothing is changed.
 *
 * ADR-0016: a backtest is bounded (backtest-bounds.ts). At most BACKTEST_MAX_DECISIONS
 * decisions and the time the gateway waits for it (a 400 naming `from` past either), the
 * rules' budgets of live checkpoints, one at a time per data set (429), and it stops when its
 * request ends: the bus aborts `signal` when nobody waits for the answer any more.
 */
@Injectable()
export class RuleBacktest {
  constructor(
    @Inject(RULE_REPOSITORY) private readonly rules: RuleRepository,
    @Inject(RULE_ENVIRONMENTS) private readonly environments: RuleEnvironments,
    private readonly decisions: DecisionRecords,
    private readonly verdicts: SubjectVerdicts,
    @Inject(RINGFENCE_CONFIG) private readonly config: RingfenceConfig,
  ) {}

  /** Data sets with a backtest running in this instance. */
  private readonly running = new Set<string>();

  async run(message: MessageEnvelope<BacktestRulesRequest>, signal: AbortSignal): Promise<BacktestRulesReply> {
    const key = JSON.stringify([message.accountId, message.environment]);
    if (this.running.has(key)) throw new AppError('RATE_LIMITED', 'a backtest of this data set is already running: try again once it has answered');
    this.running.add(key);
    try {
      const bounds = new BacktestBounds({ maxDecisions: this.config.backtestMaxDecisions, deadline: Date.now() + backtestDurationMs(this.config.requestTimeoutMs), signal });
      return await this.backtest(message, bounds);
    } finally {
      this.running.delete(key);
    }
  }

  private async backtest(message: MessageEnvelope<BacktestRulesRequest>, bounds: BacktestBounds): Promise<BacktestRulesReply> {
    const { checkpoint, from, to } = message.payload;
    const tenant = { accountId: message.accountId, environment: message.environment };
    const environment = this.environments.of(checkpoint);
    const tried = await this.triedRules(message, bounds);
    const tally = new BacktestTally(tried);
    const memo = new VerdictMemo();
    const budgets = ruleBudgetsOf(this.config);
    let cursor: { timestamp: number; scoreId: string } | null = null;
    for (;;) {
      bounds.assertWithinBounds();
      const page: StoredDecisionRecord[] = await this.decisions.page(tenant, checkpoint, from, to, cursor, PAGE_SIZE);
      if (page.length === 0) break;
      cursor = { timestamp: page[page.length - 1].timestamp, scoreId: page[page.length - 1].scoreId };
      const verdicts = await this.verdicts.judge(message, checkpoint, page, memo);
      for (const [index, record] of page.entries()) {
        const event = record.event as RecordedDecision;
        const answered = event.recommendation?.action;
        if (event.context === undefined || event.signals === undefined || event.checkpoint === undefined || answered === undefined) continue;
        await bounds.nextStep();
        bounds.countDecision();
        const features = featuresFromRecord(event.checkpoint, event.features ?? {});
        const outcome = evaluateRules(tried, environment.context({ ...event.context, features }), budgets);
        const decided = decide({ ...event.signals, ruleAction: outcome.activeAction }).action;
        tally.count(outcome, answered, decided, verdicts[index].verdict);
      }
      if (page.length < PAGE_SIZE) break;
    }
    return tally.reply(bounds.decisions);
  }

  /**
   * The rules to try, compiled: a stored rule by id (its current version, which must be of the
   * checkpoint and not disabled) keeps its state; a draft is active. Drafts get ruleId 0 and
   * negative placeholders so their results stay apart.
   */
  private async triedRules(message: MessageEnvelope<BacktestRulesRequest>, bounds: BacktestBounds): Promise<CompiledRule[]> {
    const { checkpoint, rules } = message.payload;
    const environment = this.environments.of(checkpoint);
    const tenant = { accountId: message.accountId, environment: message.environment };
    const tried: CompiledRule[] = [];
    for (const [index, entry] of rules.entries()) {
      // Compiling 50 drafts of 4,096 characters takes hundreds of milliseconds: in slices too.
      await bounds.nextStep();
      let rule: RuleVersion;
      if (entry.ruleId !== undefined) {
        const current = (await this.rules.versions(tenant, entry.ruleId)).at(-1);
        if (current === undefined) throw new AppError('VALIDATION_FAILED', `rules[${index}].ruleId: no rule ${entry.ruleId} in this data set`);
        if (current.checkpoint !== checkpoint) throw new AppError('VALIDATION_FAILED', `rules[${index}].ruleId: rule ${entry.ruleId} is a ${current.checkpoint} rule, not a ${checkpoint} one`);
        rule = current.state === 'disabled' ? { ...current, state: 'active' } : current;
      } else {
        if (entry.expression === undefined || entry.action === undefined) {
          throw new AppError('VALIDATION_FAILED', `rules[${index}]: a draft needs expression and action (or name a stored rule by ruleId)`);
        }
        rule = {
          ruleId: -(index + 1),
          ruleVersion: 0,
          name: entry.name ?? `draft ${index + 1}`,
          description: '',
          checkpoint,
          expression: entry.expression,
          action: entry.action,
          state: 'active',
          createdAt: 0,
          createdBy: '',
        };
      }
      const check = environment.check(rule.expression);
      if (!check.valid) {
        throw new AppError('VALIDATION_FAILED', expressionProblem(`rules[${index}].expression`, check.errors[0]));
      }
      tried.push({ rule, expression: environment.compile(rule.expression) });
    }
    return tried;
  }
}

