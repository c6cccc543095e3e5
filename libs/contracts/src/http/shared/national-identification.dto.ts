import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { Transform, type TransformFnParams, plainToInstance } from 'class-transformer';
import { ArrayMinSize, IsArray, IsOptional, IsString, MaxLength, MinLength, ValidateNested, registerDecorator } from 'class-validator';
import { ReadFromJson } from '../../validation/json-readings';
import { MAX_IDENTIFIER_LENGTH } from '../../validation/patterns';
import { IsOptionalKeyText } from '../../validation/scalar-fields.decorator';

/** The document inside a national identification (specification §2.2; the kind shown is `driversLicense`). */
export class IdentificationDocumentDto {
  @ApiProperty({
    example: 'MORGA753116SM9IJ',
    minLength: 1,
    maxLength: MAX_IDENTIFIER_LENGTH,
    description: 'Document number. Required: with the kind and jurisdiction it identifies the node in the graph.',
  })
  @IsString() @MinLength(1) @MaxLength(MAX_IDENTIFIER_LENGTH) idNumber!: string;
  @IsOptionalKeyText('GBR', 'Issuing country, three-letter code.') jurisdictionCountry?: string;
  @IsOptionalKeyText('ENG', 'Issuing state or region, where the country has them.') jurisdictionState?: string;
  @ApiPropertyOptional({ example: 'Alan Mathison Turing', description: 'Name as printed on the document.' }) @IsOptional() @IsString() name?: string;
}

/**
 * One item of `nationalIdentifications`: `{ "<kind>": { idNumber, … } }`, where the key names the
 * document kind (`driversLicense`, `passport`, …; the specification shows only `driversLicense`
 * and leaves the list open, so any kind is accepted and validated as the same document shape).
 *
 * Why a Map: the keys are open-ended, and the strict validation drops every property a class does
 * not declare (unknown fields are ignored). class-validator validates a Map's entries under their
 * key instead, so errors read `nationalIdentifications.0.driversLicense.idNumber: is required`,
 * and each document is still whitelisted. `toJSON` puts the wire shape back for the bus and logs;
 * code reading it uses the Map API (`entries()`, `get('driversLicense')`).
 */
export class NationalIdentificationDto extends Map<string, IdentificationDocumentDto> {
  toJSON(): Record<string, IdentificationDocumentDto> {
    return Object.fromEntries(this);
  }
}

/**
 * One item of `nationalIdentifications` as the strict validation hands it on: the parsed JSON,
 * from document kind to its validated document.
 */
export type NationalIdentification = Readonly<Record<string, IdentificationDocumentDto>>;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Map);
}

function toNationalIdentifications({ obj, key, options }: TransformFnParams): unknown {
  // The source value, not `value`: when the source already holds NationalIdentificationDto Maps
  // (an in-process message validated again by its consumer), class-transformer's own Map
  // handling has emptied each document before `value` gets here.
  const value: unknown = (obj as Record<string, unknown>)[key];
  if (!Array.isArray(value)) return value;
  return value.map((item: unknown) => {
    // Anything but an object stays as sent and fails validation as "must be an object".
    if (typeof item !== 'object' || item === null) return item;
    // An array item becomes an empty identification, which is reported as naming no kind.
    const entries = Array.isArray(item) ? [] : item instanceof Map ? [...(item as Map<string, unknown>)] : Object.entries(item);
    return new NationalIdentificationDto(
      entries.map(([kind, document]) => [
        kind,
        // A non-object document (an array included) must fail as "must be an object", which
        // nested validation reports for null but would not for an array it can iterate.
        (isPlainObject(document) ? plainToInstance(IdentificationDocumentDto, document, options) : Array.isArray(document) ? null : document) as IdentificationDocumentDto,
      ]),
    );
  });
}

/**
 * The same reading on parsed JSON, validated in place (`registerJsonReading`): each item stays an
 * object from kind to document, an array item becomes an empty one (reported as naming no kind)
 * and an array document null ("must be an object").
 */
function identificationsAsJson(value: unknown): unknown {
  if (!Array.isArray(value) || !value.some((item) => typeof item === 'object' && item !== null && (Array.isArray(item) || Object.values(item).some(Array.isArray)))) return value;
  return value.map((item: unknown) => {
    if (typeof item !== 'object' || item === null) return item;
    if (Array.isArray(item)) return {};
    return Object.fromEntries(Object.entries(item).map(([kind, document]) => [kind, Array.isArray(document) ? null : (document as unknown)]));
  });
}

/** The kinds an identification names: a Map's keys (class-transformer's reading), or a JSON object's. */
function documentKindsOf(item: unknown): string[] | undefined {
  if (item instanceof Map) return [...(item as Map<string, unknown>).keys()];
  if (typeof item === 'object' && item !== null && !Array.isArray(item)) return Object.keys(item);
  return undefined;
}

function NamesADocumentKind(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'namesADocumentKind',
      target: target.constructor,
      propertyName: propertyName.toString(),
      options: { each: true, message: `each item must be an object naming the document kind (at most ${MAX_IDENTIFIER_LENGTH} characters: the graph keys on it), e.g. {"driversLicense": {"idNumber": "…"}}` },
      validator: {
        // Non-objects are left to nested validation ("must be an object"); this catches `{}`.
        validate: (item: unknown) => {
          const kinds = documentKindsOf(item);
          return kinds === undefined || (kinds.length > 0 && kinds.every((kind) => kind.length <= MAX_IDENTIFIER_LENGTH));
        },
      },
    });
  };
}

/**
 * `nationalIdentifications` of connect (minimum one item, specification §4.2) and supplier
 * (`minimumItems: 0`: the specification sets no minimum there).
 */
export function IsOptionalNationalIdentifications(minimumItems: 0 | 1): PropertyDecorator {
  return applyDecorators(
    // The items refer to the document schema by $ref only, so it must be registered with the
    // class; ApiExtraModels on a property would register it on the prototype, where nothing looks.
    (target: object) => ApiExtraModels(IdentificationDocumentDto)(target.constructor),
    ApiPropertyOptional({
      type: 'array',
      minItems: minimumItems || undefined,
      items: { type: 'object', additionalProperties: { $ref: getSchemaPath(IdentificationDocumentDto) } },
      example: [{ driversLicense: { idNumber: 'MORGA753116SM9IJ', jurisdictionCountry: 'GBR', jurisdictionState: 'ENG', name: 'Alan Mathison Turing' } }],
      description:
        'Identity documents. Each item has one key naming the document kind (`driversLicense` is the one shown; any other kind of at most 300 characters, e.g. `passport`, is accepted with the same inner shape).',
    }),
    IsOptional(),
    IsArray(),
    ...(minimumItems > 0 ? [ArrayMinSize(minimumItems)] : []),
    NamesADocumentKind(),
    ValidateNested(),
    Transform(toNationalIdentifications, { toClassOnly: true }),
    ReadFromJson({ keyedItemsOf: IdentificationDocumentDto, convert: identificationsAsJson }),
  );
}
