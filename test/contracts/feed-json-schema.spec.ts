import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { toDraft07, topicMessageSchema } from './feed-json-schema';

/** The OpenAPI 3.0 → JSON Schema draft-07 rewriting behind docs/contracts/schemas. */
describe('OpenAPI schema objects as draft-07 (feed-json-schema.ts)', () => {
  const strict = () => {
    const ajv = new Ajv({ strict: true }).removeKeyword('nullable');
    addFormats(ajv);
    return ajv;
  };
  const accepts = (schema: object, value: unknown) => strict().validate({ definitions: { Reviewer: { type: 'object', properties: { name: { type: 'string' } } } }, ...schema }, value);

  it('turns nullable into a type union, adding null to an enum', () => {
    const schema = toDraft07({ type: 'string', enum: ['A', 'B'], nullable: true, description: 'd' }, 'x');
    expect(schema).toEqual({ type: ['string', 'null'], enum: ['A', 'B', null], description: 'd' });
    expect([accepts(schema, null), accepts(schema, 'A'), accepts(schema, 'C')]).toEqual([true, true, false]);
  });

  it('turns a nullable reference into anyOf with null, keeping the annotations outside', () => {
    const schema = toDraft07({ nullable: true, type: 'object', allOf: [{ $ref: '#/components/schemas/Reviewer' }], description: 'who' }, 'x');
    expect(schema).toEqual({ description: 'who', anyOf: [{ $ref: '#/definitions/Reviewer' }, { type: 'null' }] });
    expect([accepts(schema, null), accepts(schema, { name: 'Grace' }), accepts(schema, 'Grace')]).toEqual([true, true, false]);
  });

  it('adds null as a branch of a nullable oneOf', () => {
    expect(toDraft07({ oneOf: [{ type: 'number' }, { type: 'string' }], nullable: true }, 'x')).toEqual({ oneOf: [{ type: 'number' }, { type: 'string' }, { type: 'null' }] });
  });

  it('rewrites example, boolean exclusive bounds and OpenAPI formats; drops OpenAPI annotations', () => {
    expect(toDraft07({ type: 'integer', format: 'int64', minimum: 0, exclusiveMinimum: true, example: 5, 'x-internal': true, deprecated: true }, 'x')).toEqual({
      type: 'integer',
      exclusiveMinimum: 0,
      examples: [5],
    });
    expect(toDraft07({ type: 'string', format: 'date-time' }, 'x')).toEqual({ type: 'string', format: 'date-time' });
  });

  it('moves constraints beside a $ref into allOf (draft-07 ignores them there)', () => {
    expect(toDraft07({ $ref: '#/components/schemas/Reviewer', description: 'd', minProperties: 1 }, 'x')).toEqual({ description: 'd', allOf: [{ $ref: '#/definitions/Reviewer' }, { minProperties: 1 }] });
  });

  it('refuses what it cannot translate, naming where', () => {
    expect(() => toDraft07({ type: 'object', properties: { a: { type: 'string', xml: {}, readOnlyish: true } } }, 'T')).toThrow('T/properties/a/readOnlyish: "readOnlyish" is not a draft-07 keyword');
    expect(() => toDraft07({ type: 'string', format: 'phone' }, 'T')).toThrow('T/format: format "phone" is neither a draft-07 format nor an OpenAPI one');
    expect(() => toDraft07({ $ref: 'other.json#/X' }, 'T')).toThrow('T/$ref: cannot resolve $ref "other.json#/X" in a standalone schema');
  });

  it('describes the whole message: the envelope with the payload by reference, every definition it needs', () => {
    const components = {
      Event: { type: 'object', properties: { reviewer: { $ref: '#/components/schemas/Reviewer' } }, required: ['reviewer'] },
      Reviewer: { type: 'object', properties: { name: { type: 'string', example: 'Grace' } } },
      Unused: { type: 'object' },
    };
    const schema = topicMessageSchema('ringfence.test.v1', 'Event', components);
    expect(Object.keys(schema.definitions as object)).toEqual(['Event', 'Reviewer']);
    const validate = strict().compile(schema);
    const message = { eventId: 'e', accountId: 'a', environment: 'live', subjectId: 's', acceptedAt: 1, traceId: 't', payload: { reviewer: { name: 'Grace' } } };
    expect(validate(message)).toBe(true);
    expect(validate({ ...message, payload: { reviewer: 'Grace' } })).toBe(false);
    expect(validate(message.payload)).toBe(false);
    expect(() => topicMessageSchema('ringfence.test.v1', 'Missing', components)).toThrow('ringfence.test.v1: the schema refers to Missing, which the document does not define');
  });
});
