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
  compileRules,
} from '@ringfence/scoring-engine';
import { ROOT_LOGGER } from '@ringfence/service-runtime';
import { RULE_ENVIRONMENTS } from './rule-environment.provider';

const tenantKey = ({ accountId, environment }: RuleTenant): string => JSON.stringify([accountId, environment]);

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
  /** Tenant → checkpoint → the compiled rules that are not disabled, by ruleId. */
  private readonly compiled = new Map<string, Map<RuleCheckpoint, CompiledRule[]>>();

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
    byCheckpoint.set(checkpoint, compiled);
  }
}
