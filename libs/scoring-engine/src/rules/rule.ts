import type { ChallengePreference, RuleAction, RuleCheckpoint, ScaExemption, StoredRuleState } from '@ringfence/contracts';

/** What an analyst writes: the fields of POST and PUT /v2/rules. */
export interface RuleDefinition {
  name: string;
  description: string;
  checkpoint: RuleCheckpoint;
  /** CEL, a boolean over the rule context (rule-context.ts). */
  expression: string;
  action: RuleAction;
  state: StoredRuleState;
  /** pspBeforeAuth rules only: how to run 3-D Secure when the rule triggers (the answer's `transactionOptimisation`). */
  transactionOptimisation?: RuleTransactionOptimisation;
}

export interface RuleTransactionOptimisation {
  exemption?: ScaExemption;
  threeDSChallengePreference?: ChallengePreference;
}

/** One saved version of a rule; versions are never changed nor erased. */
export interface RuleVersion extends RuleDefinition {
  /** Integer, per account and data set, from 1. */
  ruleId: number;
  /** Integer, from 1; every save adds one. */
  ruleVersion: number;
  /** Epoch milliseconds. */
  createdAt: number;
  /** The id of the API key (or of the person's session key) that saved it. */
  createdBy: string;
  /**
   * Who saved it, as audit trails name whoever acted: the signed-in person's e-mail, or
   * `key <keyId>` (actorOf). Stored with every version; absent only from versions published on
   * the topic before it was recorded (read as `key <createdBy>`).
   */
  author?: string;
  /** Set when this version kept failing and is not evaluated (ADR-0016); a new version has none. */
  suspension?: RuleSuspension;
}

/** Why and since when a rule version is suspended. */
export interface RuleSuspension {
  /** Epoch milliseconds. */
  suspendedAt: number;
  reason: string;
}

/** The account and data set a rule belongs to. */
export interface RuleTenant {
  accountId: string;
  environment: string;
}

/**
 * Rule versions per account and data set. Every method takes the tenant: rules of one data set
 * are never visible to another.
 */
export interface RuleRepository {
  /** Saves version 1 of a new rule with the next free ruleId of the tenant. */
  create(tenant: RuleTenant, definition: RuleDefinition, createdBy: string, author?: string): Promise<RuleVersion>;
  /** Saves the next version of a rule; null when the tenant has no such rule. `author` defaults to `key <createdBy>`. */
  addVersion(tenant: RuleTenant, ruleId: number, definition: RuleDefinition, createdBy: string, author?: string): Promise<RuleVersion | null>;
  /** Every version of a rule, oldest first; empty when unknown. */
  versions(tenant: RuleTenant, ruleId: number): Promise<RuleVersion[]>;
  /** The latest version of each of the tenant's rules (of one checkpoint when given), by ruleId. */
  currentVersions(tenant: RuleTenant, checkpoint?: RuleCheckpoint): Promise<RuleVersion[]>;
  /** The latest version of every rule of every tenant that is not disabled: what scoring loads at start. */
  allLiveVersions(): Promise<Array<RuleVersion & RuleTenant>>;
  /** Records a version's suspension; a version already suspended keeps its first. */
  suspend(tenant: RuleTenant, ruleId: number, ruleVersion: number, suspension: RuleSuspension): Promise<void>;
}

export const RULE_REPOSITORY = Symbol('RuleRepository');
