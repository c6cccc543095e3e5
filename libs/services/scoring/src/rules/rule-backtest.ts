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
  strongerAction,
} from '@ringfence/scoring-engine';
import { RINGFENCE_CONFIG } from '@ringfence/service-runtime';
import { DecisionRecords } from '../decisions/decision-records';
import type { RecordedDecision } from '../decisions/recorded-decision';
import { SubjectVerdicts, VerdictMemo } from '../decisions/subject-verdicts';
import { BacktestBounds, backtestDurationMs } from './backtest-bounds';
import { BacktestMatches } from './backtest-matches';
import { BacktestTally } from './backtest-tally';
import { RULE_ENVIRONMENTS } from './rule-environment.provider';
import { ruleBudgetsOf } from './rule-budgets';
import type { RuleAction } from '@ringfence/contracts';

/** Decision records read per page: memory stays bounded however long the period is. */
const PAGE_SIZE = 500;

/**
 * A backtest (ADR-0011): the given rules, drafts or stored ones, evaluated over the
 * tenant's decision records of the checkpoint in [from, to), exactly over what each decision
 * recorded (its rule context and the other sources' verdicts), page by page. `after` is the
 * action decided again with the tried rules beside the checkpoint's other stored rules as they
 * stood at that decision (`othersInForce`), a tried stored rule taking its own place; "fraud" and
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
    const { checkpoint } = message.payload;
    const tenant = { accountId: message.accountId, environment: message.environment };
    const environment = this.environments.of(checkpoint);
    const { from, to } = await this.window(message);
    const tried = await this.triedRules(message, bounds);
    // A stored rule tried (as it is or edited) takes its own place: its verdicts of the time are not kept.
    const replaced = new Set(tried.map(({ rule }) => rule.ruleId).filter((ruleId) => ruleId > 0));
    const tally = new BacktestTally(tried);
    const matches = new BacktestMatches();
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
        const ruleAction = strongerAction(othersInForce(event, replaced), outcome.activeAction);
        const decided = decide({ ...event.signals, ruleAction }).action;
        const { verdict } = verdicts[index];
        tally.count(outcome, answered, decided, verdict);
        if (decided !== answered || outcome.triggered.length > 0) matches.add(record, event.features ?? {}, answered, decided, verdict);
      }
      if (page.length < PAGE_SIZE) break;
    }
    return { from, to, ...tally.reply(bounds.decisions), matches: matches.list() };
  }

  /**
   * The window asked, or the data set's period of the checkpoint for an end not given: its
   * first decision to one millisecond after its last, so that imported or simulated history,
   * stamped long ago, is backtested by default. Empty (`to` = `from`) when there is nothing.
   */
  private async window(message: MessageEnvelope<BacktestRulesRequest>): Promise<{ from: number; to: number }> {
    const { checkpoint, from, to } = message.payload;
    if (from !== undefined && to !== undefined) return { from, to };
    const period = await this.decisions.period({ accountId: message.accountId, environment: message.environment }, checkpoint);
    const start = from ?? period?.first ?? 0;
    const end = to ?? (period === null ? start : period.last + 1);
    return { from: start, to: Math.max(start, end) };
  }

  /**
   * The rules to try, compiled: a stored rule by id (its current version, which must be of the
   * checkpoint; disabled, it is tried as active) keeps its state, and with an expression and an
   * action it is edited so; a draft is active. Drafts get ruleId 0 and negative placeholders so
   * their results stay apart.
   */
  private async triedRules(message: MessageEnvelope<BacktestRulesRequest>, bounds: BacktestBounds): Promise<CompiledRule[]> {
    const { checkpoint, rules } = message.payload;
    const environment = this.environments.of(checkpoint);
    const tried: CompiledRule[] = [];
    for (const [index, entry] of rules.entries()) {
      // Compiling 50 drafts of 4,096 characters takes hundreds of milliseconds: in slices too.
      await bounds.nextStep();
      const rule = await this.ruleToTry(message, entry, index);
      const check = environment.check(rule.expression);
      if (!check.valid) {
        throw new AppError('VALIDATION_FAILED', expressionProblem(`rules[${index}].expression`, check.errors[0]));
      }
      tried.push({ rule, expression: environment.compile(rule.expression) });
    }
    return tried;
  }

  private async ruleToTry(message: MessageEnvelope<BacktestRulesRequest>, entry: BacktestRulesRequest['rules'][number], index: number): Promise<RuleVersion> {
    const { checkpoint } = message.payload;
    const isDraft = entry.expression !== undefined || entry.action !== undefined;
    if (isDraft && (entry.expression === undefined || entry.action === undefined)) {
      throw new AppError('VALIDATION_FAILED', `rules[${index}]: a draft needs expression and action (or name a stored rule by ruleId alone)`);
    }
    if (entry.ruleId === undefined) {
      if (!isDraft) throw new AppError('VALIDATION_FAILED', `rules[${index}]: a draft needs expression and action (or name a stored rule by ruleId)`);
      return { ruleId: -(index + 1), ruleVersion: 0, name: entry.name ?? `draft ${index + 1}`, description: '', checkpoint, expression: entry.expression as string, action: entry.action as RuleAction, state: 'active', createdAt: 0, createdBy: '' };
    }
    const current = (await this.rules.versions({ accountId: message.accountId, environment: message.environment }, entry.ruleId)).at(-1);
    if (current === undefined) throw new AppError('VALIDATION_FAILED', `rules[${index}].ruleId: no rule ${entry.ruleId} in this data set`);
    if (current.checkpoint !== checkpoint) throw new AppError('VALIDATION_FAILED', `rules[${index}].ruleId: rule ${entry.ruleId} is a ${current.checkpoint} rule, not a ${checkpoint} one`);
    const stored: RuleVersion = current.state === 'disabled' ? { ...current, state: 'active' } : current;
    if (!isDraft) return stored;
    return { ...stored, name: entry.name ?? stored.name, expression: entry.expression as string, action: entry.action as RuleAction };
  }
}


/**
 * The strongest action of the checkpoint's other stored rules at a decision: the active rules
 * it recorded as true, in the versions in force then (those whose createdAt came before it),
 * but the ones the backtest tries, which take their place. Read from the record, not evaluated
 * again: it is what they decided then.
 */
export function othersInForce(event: RecordedDecision, replaced: ReadonlySet<number>): RuleAction | null {
  let strongest: RuleAction | null = null;
  for (const rule of event.rules?.triggered ?? []) {
    if (rule.state === 'active' && !replaced.has(rule.ruleId)) strongest = strongerAction(strongest, rule.action);
  }
  return strongest;
}
