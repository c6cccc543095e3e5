import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { MAX_IDENTIFIER_LENGTH, MAX_RULE_ID, RULE_CHECKPOINTS, type RuleCheckpoint } from '@ringfence/contracts';

/** `:ruleId` is an integer; path segments arrive as text. */
export class RulePathDto {
  @Type(() => Number) @IsInt({ message: 'must be an integer' }) @Min(1) @Max(MAX_RULE_ID) ruleId!: number;
}

export class RuleListQueryDto {
  @ApiPropertyOptional({ enum: RULE_CHECKPOINTS, description: 'Only the rules of this checkpoint.' })
  @IsOptional() @IsIn(RULE_CHECKPOINTS, { message: `must be one of ${RULE_CHECKPOINTS.join(', ')}` }) checkpoint?: RuleCheckpoint;
}

export class DecisionPathDto {
  @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) scoreId!: string;
}
