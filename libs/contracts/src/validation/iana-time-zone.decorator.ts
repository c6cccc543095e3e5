import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { type ValidationOptions, registerDecorator } from 'class-validator';
import { TIME_ZONE_RULE, canonicalTimeZone } from './iana-time-zone';
import { ReadFromJson } from './json-readings';

const canonicalOrAsSent = (value: unknown): unknown => canonicalTimeZone(value) ?? value;

/**
 * A time-zone setting: an IANA time-zone name (`canonicalTimeZone`), at most 64 characters;
 * anything else, a non-string included, fails with one message (`TIME_ZONE_RULE`). A valid name
 * is replaced by its canonical spelling as the body is read, so what is stored, and what the
 * next answer shows, is the name the runtime resolves (`europe/london` → `Europe/London`), the
 * same whichever route set it. null and absence are left to `IsOptional` beside it.
 */
export function IsIanaTimeZone(options?: ValidationOptions): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) => canonicalOrAsSent(value), { toClassOnly: true }),
    ReadFromJson({ convert: canonicalOrAsSent }),
    (target: object, propertyName: string | symbol) => {
      registerDecorator({
        name: 'isIanaTimeZone',
        target: target.constructor,
        propertyName: propertyName.toString(),
        options: { message: TIME_ZONE_RULE, ...options },
        validator: { validate: (value: unknown) => canonicalTimeZone(value) !== null },
      });
    },
  );
}
