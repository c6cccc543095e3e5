import fc from 'fast-check';
import { MAX_IDENTIFIER_LENGTH } from '@ringfence/contracts';

type Schema = Record<string, unknown>;
export type OpenApiDocument = { paths: Record<string, Record<string, Schema>>; components?: { schemas?: Record<string, Schema> } };

export interface ArbitraryOptions {
  /**
   * Hostile-but-valid values as well as ordinary ones (ADR-0016: every value accepted must be storable and processable): integers
   * and times at the very edges of their ranges (times in every unit), strings at their maximum
   * length in awkward Unicode, unbounded strings far longer than any real one, arrays at their
   * maximum size, open objects nested as deep as a body may be. With `justPast`, also values just
   * past those edges (the answer must then be a 400, never a stored value that fails later).
   */
  hostile?: boolean;
  justPast?: boolean;
}

/** The deepest nesting a body may have (the gateway refuses deeper ones: `MAX_JSON_DEPTH`). */
const MAX_BODY_DEPTH = 32;
/** Much longer than any real name or address; short enough that a body of many stays under 1 MiB. */
const UNBOUNDED_STRING_LENGTH = 4_096;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const TIME_LIMIT_MS = Date.UTC(2100, 0, 1);

/**
 * Characters that cost a store most: a C0 control, a quote and a backslash (six, two and two
 * bytes once escaped in JSON), three- and four-byte UTF-8 (a CJK ideograph, U+FFFF, an emoji as
 * a surrogate pair), a combining mark alone, a right-to-left override, a line separator, a byte-order mark.
 */
const AWKWARD_CHARACTERS = ['\u0001', '"', '\\', '中', '\uffff', '😀', '\u0301', '\u202e', '\u2028', '\ufeff'];

/** The edges of the accepted times (ADR-0016) in every unit: seconds, ms, µs, ns. */
const TIME_EDGES = [0, 1, 4_102_444, 100_000_000, 4_102_444_799, 1e11, TIME_LIMIT_MS - 1, 1e14, 4_102_444_799_999_000, 1e17, 4_102_444_799_998_000_000];
/** Just past them: before 1970, 2100 in each unit, the 1970–1973 times whose ms read as seconds, 1e30. */
const TIMES_JUST_PAST = [-1, 4_102_444_800, 50_000_000, 99_999_999_999, TIME_LIMIT_MS, 4_102_444_800_000_000, 1e30, -1e30];
// JSON.stringify writes -0 as 0: a -0 has to be sent as raw text.
/** A time, as the document describes every one: with the accepted range (ADR-0016). */
const isTime = (schema: Schema) => typeof schema.description === 'string' && schema.description.includes('1970-01-01 to before 2100-01-01');
const NUMBER_EDGES = [5e-324, -5e-324, Number.MAX_VALUE, -Number.MAX_VALUE, 1e-7];

/**
 * fast-check arbitraries for the request bodies the OpenAPI document describes, which the
 * gateway generates from the class-validator DTOs: every field with its type, enum, bounds and
 * pattern, required ones always present, optional ones sometimes. Values that satisfy the schema
 * can still break rules it cannot express (mutual exclusions, "one of"), so callers must accept
 * a 400 as well as a 200; what they must never see is a 500.
 */
export class OpenApiArbitraries {
  constructor(
    private readonly document: OpenApiDocument,
    private readonly options: ArbitraryOptions = {},
  ) {}

  /** The JSON body schema of an operation, or undefined when it takes none. */
  requestSchema(path: string, method: string): Schema | undefined {
    const body = this.document.paths[path]?.[method]?.requestBody as Schema | undefined;
    return ((body?.content as Record<string, Schema> | undefined)?.['application/json']?.schema as Schema | undefined) ?? undefined;
  }

  of(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
    const resolved = this.resolve(schema);
    if (depth > 8) return fc.constant(undefined);
    const choices = (resolved.oneOf ?? resolved.anyOf) as Schema[] | undefined;
    if (choices) return fc.oneof(...choices.map((choice) => this.of(choice, depth + 1)));
    if (Array.isArray(resolved.allOf)) return this.of(Object.assign({}, ...(resolved.allOf as Schema[]).map((part) => this.resolve(part))), depth);
    if (Array.isArray(resolved.enum)) return fc.constantFrom(...(resolved.enum as unknown[]));
    switch (resolved.type) {
      case 'object':
        return this.object(resolved, depth);
      case 'array':
        return this.array(resolved, depth);
      case 'string':
        return this.string(resolved);
      case 'integer':
        return isTime(resolved) ? this.time() : this.integer(resolved);
      case 'number':
        return this.number();
      case 'boolean':
        return fc.boolean();
      default:
        return resolved.properties ? this.object(resolved, depth) : this.openValue(depth);
    }
  }

  private object(schema: Schema, depth: number): fc.Arbitrary<unknown> {
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    const values = schema.additionalProperties;
    // A map (`tags`: name to boolean): keys as the document bounds them, values of its schema.
    if (Object.keys(properties).length === 0 && typeof values === 'object' && values !== null) return this.map(values as Schema, depth);
    if (Object.keys(properties).length === 0) return this.openValue(depth);
    const required = (schema.required as string[] | undefined) ?? [];
    const record: Record<string, fc.Arbitrary<unknown>> = {};
    for (const [name, property] of Object.entries(properties)) record[name] = this.of(property, depth + 1);
    return fc.record(record, { requiredKeys: required.filter((name) => name in record) });
  }

  /** A map (`tags`): its keys are bounded as identifiers are (ADR-0009), which OpenAPI 3.0 cannot say. */
  private map(values: Schema, depth: number): fc.Arbitrary<unknown> {
    const keys = this.string({ type: 'string', minLength: 1, maxLength: MAX_IDENTIFIER_LENGTH });
    return fc.dictionary(keys, this.of(values, depth + 1), { maxKeys: 3 });
  }

  private array(schema: Schema, depth: number): fc.Arbitrary<unknown> {
    const minLength = (schema.minItems as number | undefined) ?? 0;
    const maxItems = schema.maxItems as number | undefined;
    const items = this.of((schema.items as Schema) ?? {}, depth + 1);
    const ordinary = fc.array(items, { minLength, maxLength: Math.max(3, minLength) });
    if (!this.options.hostile || maxItems === undefined) return ordinary;
    return fc.oneof(ordinary, fc.array(items, { minLength: maxItems, maxLength: maxItems }));
  }

  /** An object the document leaves open (`flightBooking`, `custom`): any JSON, or, hostile, nested as deep as a body may be. */
  private openValue(depth: number): fc.Arbitrary<unknown> {
    const ordinary = fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
    if (!this.options.hostile) return ordinary;
    // `depth` counts the schema's levels down to here, each one an object or array of the body.
    const levels = Math.max(1, MAX_BODY_DEPTH - depth - 1);
    const deep = fc.tuple(this.awkwardString(8), fc.jsonValue({ maxDepth: 0 })).map(([key, leaf]) => {
      let value: unknown = leaf;
      // Objects and arrays in turn, the outermost an object, as the document asks for one.
      for (let level = levels - 1; level >= 0; level -= 1) value = level % 2 === 0 ? { [key]: value } : [value];
      return value;
    });
    return fc.oneof(ordinary, deep);
  }

  private string(schema: Schema): fc.Arbitrary<string> {
    const minLength = (schema.minLength as number | undefined) ?? 0;
    const maxLength = schema.maxLength as number | undefined;
    if (typeof schema.pattern === 'string') {
      // The pattern fixes the shape (and often the length, as `{64}` does); only explicit bounds filter.
      const pattern = new RegExp(schema.pattern);
      return fc.stringMatching(pattern).filter((value) => value.length >= minLength && (maxLength === undefined || value.length <= maxLength));
    }
    const ordinary = fc.string({ minLength, maxLength: Math.min(maxLength ?? 40, 300) });
    if (!this.options.hostile) return ordinary;
    return fc.oneof(ordinary, this.awkwardString(maxLength ?? UNBOUNDED_STRING_LENGTH));
  }

  /**
   * `length` characters as class-validator counts them (a surrogate pair or a combining sequence
   * is one), drawn from `AWKWARD_CHARACTERS`: the most bytes a store can be handed for that length.
   */
  private awkwardString(length: number): fc.Arbitrary<string> {
    const mixed = fc.array(fc.constantFrom(...AWKWARD_CHARACTERS), { minLength: length, maxLength: length }).map((characters) => characters.join(''));
    // One character throughout: the most bytes of all (a C0 control is six once escaped in JSON, an emoji four).
    const uniform = fc.constantFrom(...AWKWARD_CHARACTERS).map((character) => character.repeat(length));
    return fc.oneof(mixed, uniform);
  }

  private integer(schema: Schema): fc.Arbitrary<number> {
    const min = (schema.minimum as number | undefined) ?? (this.options.hostile ? -MAX_SAFE : 0);
    const max = (schema.maximum as number | undefined) ?? (this.options.hostile ? MAX_SAFE : 1_800_000_000_000);
    const ordinary = fc.integer({ min, max });
    if (!this.options.hostile) return ordinary;
    const edges = [min, max, ...(min <= 0 && max >= 0 ? [0] : [])];
    const justPast = [min - 1, max + 1, ...(min === -MAX_SAFE ? [-1e30] : []), ...(max === MAX_SAFE ? [1e30] : [])];
    return this.hostileChoice(ordinary, edges, justPast);
  }

  private time(): fc.Arbitrary<number> {
    const ordinary = fc.integer({ min: 1e11, max: TIME_LIMIT_MS - 1 });
    if (!this.options.hostile) return ordinary;
    return this.hostileChoice(ordinary, TIME_EDGES, TIMES_JUST_PAST);
  }

  /**
   * Ordinary values and edges alike; values just past the edges (with `justPast`) rarely, so that a
   * body with a dozen numbers is still accepted often enough to be stored.
   */
  private hostileChoice(ordinary: fc.Arbitrary<number>, edges: number[], justPast: number[]): fc.Arbitrary<number> {
    return fc.oneof(
      { arbitrary: ordinary, weight: 5 },
      { arbitrary: fc.constantFrom(...edges), weight: 5 },
      ...(this.options.justPast ? [{ arbitrary: fc.constantFrom(...justPast), weight: 1 }] : []),
    );
  }

  private number(): fc.Arbitrary<number> {
    const ordinary = fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 });
    return this.options.hostile ? fc.oneof(ordinary, fc.constantFrom(...NUMBER_EDGES)) : ordinary;
  }

  private resolve(schema: Schema): Schema {
    let current = schema;
    for (let hops = 0; typeof current.$ref === 'string' && hops < 10; hops += 1) {
      const name = (current.$ref as string).split('/').pop()!;
      current = this.document.components?.schemas?.[name] ?? {};
    }
    return current;
  }
}
