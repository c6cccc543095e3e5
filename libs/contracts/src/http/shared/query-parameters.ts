import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional } from 'class-validator';
import { ReadFromJson } from '../../validation/json-readings';
import { IsIntegerInRange } from './integer-range';

// Query strings carry text, and the validation never converts implicitly (types are strict,
// ADR-0009). These decorators convert exactly the spellings the interface defines and leave
// anything else as sent, so it fails with a 400 that names the parameter.

const queryBoolean = (value: unknown): unknown => (value === 'true' ? true : value === 'false' ? false : value);
const queryInteger = (value: unknown): unknown => (typeof value === 'string' && /^-?[0-9]+$/.test(value) ? Number(value) : value);

/** A boolean query parameter: exactly `true` or `false`. */
export function IsOptionalQueryBoolean(description: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: 'boolean', example: true, description }),
    Transform(({ value }: { value: unknown }) => queryBoolean(value), { toClassOnly: true }),
    ReadFromJson({ convert: queryBoolean }),
    IsOptional(),
    IsBoolean({ message: 'must be true or false' }),
  );
}

/** An integer query parameter within [minimum, maximum]: decimal digits only (no `1.5`, `1e1`, ` 2`). */
export function IsOptionalQueryInteger(minimum: number, maximum: number, description: string, defaultValue?: number): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: 'integer', minimum, maximum, example: defaultValue ?? maximum, default: defaultValue, description }),
    Transform(({ value }: { value: unknown }) => queryInteger(value), { toClassOnly: true }),
    ReadFromJson({ convert: queryInteger }),
    IsOptional(),
    IsIntegerInRange(minimum, maximum),
  );
}

/** `?explain=true` of every checkpoint: the answer carries `data.explanation` (ADR-0012). */
export class ExplainQueryDto {
  @IsOptionalQueryBoolean('`true`: the answer carries `data.explanation`, why it was given (the model\'s top contributions either way, the rules that triggered, the deciding source). Always on the decision event and at `GET /v2/decisions/{scoreId}`.')
  explain?: boolean;
}

/**
 * `?score=` of the customer and voucher-redemption checkpoints: a legacy switch that is accepted
 * (ADR-0009) and changes nothing, since these checkpoints always score. Any other value is 400.
 */
export class ScoreQueryDto extends ExplainQueryDto {
  @IsOptionalQueryBoolean('Legacy switch, accepted for compatibility and ignored: the checkpoint always scores.') score?: boolean;
}
