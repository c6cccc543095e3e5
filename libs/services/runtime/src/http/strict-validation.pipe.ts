import { type ArgumentMetadata, Injectable, type PipeTransform } from '@nestjs/common';
import { AppError } from '@ringfence/platform';
import { type InputClass, validateInput } from './validate-input';

/**
 * The global pipe for `@Body()` and `@Query()` DTO parameters: `validateInput` with a 400 that
 * lists every failing field. Parameters without a DTO class (path ids) pass through.
 */
@Injectable()
export class StrictValidationPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    const { metatype, type } = metadata;
    if (type === 'custom' || !metatype || [String, Number, Boolean, Array, Object].includes(metatype as never)) return value;
    const outcome = validateInput(metatype as InputClass<object>, value ?? (type === 'query' ? {} : value), type);
    if (!outcome.ok) throw new AppError('VALIDATION_FAILED', outcome.problems.join('; '));
    return outcome.value;
  }
}
