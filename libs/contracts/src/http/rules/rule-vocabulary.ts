/**
 * decisions §11: the checkpoints a rule can be written for. The PSP transaction checkpoint is
 * two: before and after authorisation (the `checkpoint` query parameter of /psp/transaction).
 */
export const RULE_CHECKPOINTS = ['customer', 'voucherRedemption', 'registration', 'refund', 'payout', 'pspBeforeAuth', 'pspAfterAuth'] as const;
export type RuleCheckpoint = (typeof RULE_CHECKPOINTS)[number];

/** What a triggered rule asks for. */
export const RULE_ACTIONS = ['ALLOW', 'REVIEW', 'PREVENT'] as const;
export type RuleAction = (typeof RULE_ACTIONS)[number];

/** States a rule can be saved with; `disabled` is set by DELETE (and may be saved again by PUT). */
export const RULE_STATES_STORED = ['active', 'passive', 'disabled'] as const;
export type StoredRuleState = (typeof RULE_STATES_STORED)[number];

/** Longest expression accepted, in characters; the parser also bounds its depth and size. */
export const MAX_RULE_EXPRESSION_LENGTH = 4_096;
export const MAX_RULE_NAME_LENGTH = 200;
export const MAX_RULE_DESCRIPTION_LENGTH = 2_000;
/** Rules a data set may hold that are not disabled, per checkpoint. */
export const MAX_RULES_PER_CHECKPOINT = 200;

/** ruleId and ruleVersion are stored as 32-bit integers. */
export const MAX_RULE_ID = 2_147_483_647;
