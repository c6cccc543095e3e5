import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { RuleCheckpoint } from '@ringfence/contracts';
import type { Logger } from '@ringfence/platform';
import {
  type CompiledRule,
  RULE_REPOSITORY,
  type RuleEnvironments,
  type RuleRepository,
  type RuleTenant,
  type RuleVersion,
  type RulesOutcome,
  compileRules,
} from '@ringfence/scoring-engine';
import { ROOT_LOGGER } from '@ringfence/service-runtime';
import { RULE_ENVIRONMENTS } from './rule-environment.provider';

const tenantKey = ({ accountId, environment }: RuleTenant): string => JSON.stringify([accountId, environment]);

/**
 * ADR-0016, what "keeps failing" means: this many evaluations in a row at live checkpoints
 * that threw or ran past their budget. One success resets the count; a rule the checkpoint's
 * budget left unevaluated is not counted (another rule spent it). Consecutive, so that a rule
 * reading a field only some requests send, or a pause of the collector, is never suspended.
 */
export const SUSPEND_AFTER_CONSECUTIVE_FAILURES = 5;

/**
 * The rules every checkpoint runs, compiled, in memory: loaded from the table at start and
 * kept current by every saved version (applied by the save itself and by the `ruleSaved`
 * consumer of every scoring instance). A checkpoint reads no table for its rules.
 *
 * Versions only move forward: a version older than the one held is ignored, so the same
 * version applied twice (by the save and by the consumer), or replayed, changes nothing.
 */
@Injectable()
export class RuleBook implements OnModuleInit {
  /** Tenant → ruleId → the latest version seen (disabled ones too, so an older one cannot revive). */
  private readonly latest = new Map<string, Map<number, RuleVersion>>();
  /** Tenant → checkpoint → the compiled rules that are neither disabled nor suspended, by ruleId. */
  private readonly compiled = new Map<string, Map<RuleCheckpoint, CompiledRule[]>>();
  /** Consecutive failures of the compiled rules failing now; a recompiled rule starts again from none. */
  private readonly failureStreaks = new Map<CompiledRule, number>();

  constructor(
    @Inject(RULE_REPOSITORY) private readonly rules: RuleRepository,
    @Inject(RULE_ENVIRONMENTS) private readonly environments: RuleEnvironments,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  async onModuleInit(): Promise<void> {
    const started = Date.now();
    const live = await this.rules.allLiveVersions();
    for (const rule of live) this.apply(rule, rule);
    this.logger.info({ rules: live.length, durationMs: Date.now() - started }, 'rules loaded');
  }

  /** The compiled rules of a tenant's checkpoint, in ruleId order; empty when it has none. */
  rulesOf(tenant: RuleTenant, checkpoint: RuleCheckpoint): readonly CompiledRule[] {
    return this.compiled.get(tenantKey(tenant))?.get(checkpoint) ?? [];
  }

  /** Takes a saved version if it is newer than the one held. */
  apply(tenant: RuleTenant, version: RuleVersion): void {
    const key = tenantKey(tenant);
    let rules = this.latest.get(key);
    if (rules === undefined) {
      rules = new Map();
      this.latest.set(key, rules);
    }
    const held = rules.get(version.ruleId);
    if (held !== undefined && held.ruleVersion >= version.ruleVersion) return;
    rules.set(version.ruleId, version);
    this.recompile(key, rules, version.checkpoint);
    // An edit may move a rule to another checkpoint: its old one must drop it.
    if (held !== undefined && held.checkpoint !== version.checkpoint) this.recompile(key, rules, held.checkpoint);
  }

  /**
   * Counts each evaluated rule's failures in a row and suspends, for its tenant, a version that
   * reaches SUSPEND_AFTER_CONSECUTIVE_FAILURES: it leaves the book at once (the next checkpoint
   * does not evaluate it) and is recorded, so that it stays suspended after a restart and the
   * rules API shows it, until an edit saves a new version. Each scoring instance counts what it
   * evaluates; every instance reads the suspension at its next start.
   */
  recordOutcome(tenant: RuleTenant, rules: readonly CompiledRule[], outcome: RulesOutcome): void {
    if (outcome.failed.length === 0 && this.failureStreaks.size === 0) return;
    const failures = new Map(outcome.failed.map((failure) => [failure.ruleId, failure]));
    for (const compiled of rules) {
      const failure = failures.get(compiled.rule.ruleId);
      if (failure === undefined) {
        this.failureStreaks.delete(compiled);
        continue;
      }
      if (failure.cause === 'notEvaluated') continue;
      const streak = (this.failureStreaks.get(compiled) ?? 0) + 1;
      if (streak < SUSPEND_AFTER_CONSECUTIVE_FAILURES) {
        this.failureStreaks.set(compiled, streak);
        continue;
      }
      this.failureStreaks.delete(compiled);
      this.suspend(tenant, compiled.rule, `failed ${streak} evaluations in a row; the last: ${failure.error}`);
    }
  }

  private suspend(tenant: RuleTenant, version: RuleVersion, reason: string): void {
    const key = tenantKey(tenant);
    const rules = this.latest.get(key);
    const held = rules?.get(version.ruleId);
    if (rules === undefined || held === undefined || held.ruleVersion !== version.ruleVersion || held.suspension !== undefined) return;
    const suspension = { suspendedAt: Date.now(), reason };
    rules.set(held.ruleId, { ...held, suspension });
    this.recompile(key, rules, held.checkpoint);
    this.logger.warn({ accountId: tenant.accountId, environment: tenant.environment, ruleId: held.ruleId, ruleVersion: held.ruleVersion, reason }, 'rule suspended: it kept failing');
    this.rules.suspend(tenant, held.ruleId, held.ruleVersion, suspension).catch((error: unknown) => {
      // Suspended in this process all the same; after a restart it would fail its way back to suspension.
      this.logger.error({ err: error, accountId: tenant.accountId, ruleId: held.ruleId, ruleVersion: held.ruleVersion }, 'could not record a rule suspension');
    });
  }

  private recompile(key: string, rules: ReadonlyMap<number, RuleVersion>, checkpoint: RuleCheckpoint): void {
    const versions = [...rules.values()].filter((rule) => rule.checkpoint === checkpoint).sort((a, b) => a.ruleId - b.ruleId);
    const { compiled, invalid } = compileRules(this.environments.of(checkpoint), versions);
    for (const rule of invalid) {
      // Saved rules were checked on save; one that no longer checks means the context lost a name it used.
      this.logger.warn({ ruleId: rule.ruleId, ruleVersion: rule.ruleVersion, checkpoint }, 'a saved rule no longer type-checks against the rule context; it is not evaluated');
    }
    let byCheckpoint = this.compiled.get(key);
    if (byCheckpoint === undefined) {
      byCheckpoint = new Map();
      this.compiled.set(key, byCheckpoint);
    }
    for (const previous of byCheckpoint.get(checkpoint) ?? []) this.failureStreaks.delete(previous);
    byCheckpoint.set(checkpoint, compiled);
  }
}
