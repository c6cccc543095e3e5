/** What a triggered rule asks for. */
export const RULE_ACTIONS = ['ALLOW', 'REVIEW', 'PREVENT'] as const;
export type RuleAction = (typeof RULE_ACTIONS)[number];

/** States a rule can be saved with; `disabled` is set by DELETE (and may be saved again by PUT). */
export const RULE_STATES_STORED = ['active', 'passive', 'disabled'] as const;
export type StoredRuleState = (typeof RULE_STATES_STORED)[number];

/** States the API shows: a stored one, or `suspended` for a version that kept failing (ADR-0016). */
export const RULE_STATES_SHOWN = [...RULE_STATES_STORED, 'suspended'] as const;
export type ShownRuleState = (typeof RULE_STATES_SHOWN)[number];

/** Longest expression accepted, in characters; the parser also bounds its depth and size. */
export const MAX_RULE_EXPRESSION_LENGTH = 4_096;
export const MAX_RULE_NAME_LENGTH = 200;
export const MAX_RULE_DESCRIPTION_LENGTH = 2_000;
/** Rules a data set may hold that are not disabled, per checkpoint. */
export const MAX_RULES_PER_CHECKPOINT = 200;

/** ruleId and ruleVersion are stored as 32-bit integers. */
export const MAX_RULE_ID = 2_147_483_647;

/** Strong-customer-authentication exemptions a PSP transaction may ask for (PSD2 RTS art. 16 and 18). */
export const SCA_EXEMPTIONS = ['LOW_VALUE', 'TRANSACTION_RISK_ANALYSIS'] as const;
export type ScaExemption = (typeof SCA_EXEMPTIONS)[number];

/** The 3-D Secure challenge preference to send with the authentication (EMV 3DS `threeDSRequestorChallengeInd`). */
export const CHALLENGE_PREFERENCES = ['NO_PREFERENCE', 'NO_CHALLENGE_REQUESTED', 'CHALLENGE_REQUESTED', 'CHALLENGE_MANDATED'] as const;
export type ChallengePreference = (typeof CHALLENGE_PREFERENCES)[number];

/** Where a transaction optimisation came from: the service's policy or a rule of the merchant. */
export const OPTIMISATION_SOURCES = ['RINGFENCE', 'CLIENT_RULE'] as const;
export type OptimisationSource = (typeof OPTIMISATION_SOURCES)[number];
