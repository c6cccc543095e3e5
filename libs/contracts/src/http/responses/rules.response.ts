import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RULE_ACTIONS as ACTIONS, type RuleAction as Action } from '../rules/rule-vocabulary';

/** Specification §3: the states a rule is seen in. A passive rule is evaluated and reported but does not decide. */
export const RULE_STATES = ['active', 'passive'] as const;
export type RuleState = (typeof RULE_STATES)[number];

/** One item of `rules.triggered[]` (specification §2.2, "Rules block"): a rule whose condition matched. */
export class TriggeredRuleDto {
  @ApiProperty({ type: 'integer', example: 42, description: 'Identifier of the rule within the client account.' })
  ruleId!: number;

  @ApiProperty({ type: 'integer', example: 3, description: 'Version of the rule that matched; rules are versioned on every edit.' })
  ruleVersion!: number;

  @ApiPropertyOptional({
    example: 'High first payout to new bank account',
    description: 'Human-readable rule name. The specification shows it on payout answers only; other checkpoints may omit it.',
  })
  ruleName?: string;

  @ApiProperty({
    enum: RULE_STATES,
    example: 'active',
    description: '`active` rules can decide the action; `passive` rules only report what they would have done.',
  })
  state!: RuleState;

  @ApiProperty({ enum: ACTIONS, example: 'REVIEW', description: 'The action this rule asks for.' })
  action!: Action;

  @ApiProperty({ example: 'Payout above 500 GBP within 24 h of a bank-account change.', description: 'What the rule checks.' })
  description!: string;
}

/** `rules` of the transaction, payout, registration and refund answers (specification §2.2, "Rules block"). */
export class RulesBlockDto {
  @ApiPropertyOptional({
    enum: ACTIONS,
    example: 'PREVENT',
    description:
      'What the answer\'s action would have been had the passive rules been active too (ADR-0011, in the sources\' precedence). Present whenever a passive rule triggered, also when it is the action given; absent when none did.',
  })
  passiveAction?: Action;

  @ApiProperty({
    type: () => [TriggeredRuleDto],
    description: 'Every rule that matched, active and passive; empty when none did.',
  })
  triggered!: TriggeredRuleDto[];
}
