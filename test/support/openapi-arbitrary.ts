import fc from 'fast-check';

type Schema = Record<string, unknown>;
export type OpenApiDocument = { paths: Record<string, Record<string, Schema>>; components?: { schemas?: Record<string, Schema> } };

/**
 * fast-check arbitraries for the request bodies the OpenAPI document describes, which the
 * gateway generates from the class-validator DTOs: every field with its type, enum, bounds and
 * pattern, required ones always present, optional ones sometimes. Values that satisfy the schema
 * can still break rules it cannot express (mutual exclusions, "one of"), so callers must accept
 * a 400 as well as a 200; what they must never see is a 500.
 */
export class OpenApiArbitraries {
  constructor(private readonly document: OpenApiDocument) {}

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
        return fc.array(this.of((resolved.items as Schema) ?? {}, depth + 1), {
          minLength: (resolved.minItems as number | undefined) ?? 0,
          maxLength: Math.max(3, (resolved.minItems as number | undefined) ?? 0),
        });
      case 'string':
        return this.string(resolved);
      case 'integer':
        return fc.integer({ min: (resolved.minimum as number | undefined) ?? 0, max: (resolved.maximum as number | undefined) ?? 1_800_000_000_000 });
      case 'number':
        return fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 });
      case 'boolean':
        return fc.boolean();
      default:
        return resolved.properties ? this.object(resolved, depth) : fc.jsonValue({ maxDepth: 2 });
    }
  }

  private object(schema: Schema, depth: number): fc.Arbitrary<unknown> {
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    if (Object.keys(properties).length === 0) return fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
    const required = (schema.required as string[] | undefined) ?? [];
    const record: Record<string, fc.Arbitrary<unknown>> = {};
    for (const [name, property] of Object.entries(properties)) record[name] = this.of(property, depth + 1);
    return fc.record(record, { requiredKeys: required.filter((name) => name in record) });
  }

  private string(schema: Schema): fc.Arbitrary<string> {
    const minLength = (schema.minLength as number | undefined) ?? 0;
    const maxLength = schema.maxLength as number | undefined;
    if (typeof schema.pattern === 'string') {
      // The pattern fixes the shape (and often the length, as `{64}` does); only explicit bounds filter.
      const pattern = new RegExp(schema.pattern);
      return fc.stringMatching(pattern).filter((value) => value.length >= minLength && (maxLength === undefined || value.length <= maxLength));
    }
    return fc.string({ minLength, maxLength: Math.min(maxLength ?? 40, 300) });
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
