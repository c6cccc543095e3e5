/**
 * Turns the OpenAPI 3.0 schema objects `@nestjs/swagger` derives from the contract classes into
 * standalone JSON Schema (draft-07) documents, one per event topic, describing each message
 * exactly as it is published: the envelope, with the topic's payload under `payload`.
 *
 * OpenAPI 3.0 schema objects are not JSON Schema: `nullable`, `example`, boolean
 * `exclusiveMinimum`, formats such as `int64`, `discriminator`, `x-` extensions and
 * `#/components/schemas/` references mean nothing to a draft-07 validator (or make a strict one
 * refuse the schema). Each is rewritten here or refused, so an unexpected keyword in a contract
 * fails the generator instead of reaching the published schemas.
 */

export type Schema = Record<string, unknown>;

export const JSON_SCHEMA_DRAFT = 'http://json-schema.org/draft-07/schema#';
export const SCHEMA_ID_BASE = 'https://ringfence.example/schemas/';

/** Draft-07 keywords the generator passes through (after converting their sub-schemas). */
const DRAFT_07_KEYWORDS = new Set([
  'type', 'enum', 'const', 'title', 'description', 'default', 'examples', 'readOnly', 'writeOnly',
  'properties', 'required', 'additionalProperties', 'patternProperties', 'propertyNames', 'minProperties', 'maxProperties', 'dependencies',
  'items', 'additionalItems', 'minItems', 'maxItems', 'uniqueItems', 'contains',
  'minLength', 'maxLength', 'pattern', 'format',
  'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf',
  'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', '$ref',
]);

/** Annotations: they stay on the outer schema when a nullable schema is wrapped in `anyOf`. */
const ANNOTATIONS = ['title', 'description', 'default', 'examples', 'readOnly', 'writeOnly'];

/**
 * Formats draft-07 defines that `ajv-formats` also implements; OpenAPI's own (`int32`, `int64`,
 * `float`, `double`, `byte`, `binary`, `password`) are not JSON Schema formats and are dropped.
 */
const DRAFT_07_FORMATS = new Set([
  'date-time', 'date', 'time', 'email', 'hostname', 'ipv4', 'ipv6', 'uri', 'uri-reference', 'uri-template', 'json-pointer', 'relative-json-pointer', 'regex',
]);
const OPENAPI_ONLY_FORMATS = new Set(['int32', 'int64', 'float', 'double', 'byte', 'binary', 'password']);

/** OpenAPI-only keywords with no validation meaning: dropped. */
const OPENAPI_ONLY_ANNOTATIONS = new Set(['xml', 'externalDocs', 'discriminator', 'deprecated']);

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `#/components/schemas/X` → `#/definitions/X`; anything else is not resolvable in a standalone schema. */
function definitionRef(ref: unknown, where: string): string {
  if (typeof ref !== 'string' || !ref.startsWith('#/components/schemas/') || ref.length === '#/components/schemas/'.length) {
    throw new Error(`${where}: cannot resolve $ref ${JSON.stringify(ref)} in a standalone schema`);
  }
  return `#/definitions/${ref.slice('#/components/schemas/'.length)}`;
}

/** The name a component reference points at. */
export function referencedName(ref: string): string {
  return ref.slice(ref.lastIndexOf('/') + 1);
}

/** One OpenAPI 3.0 schema object as a draft-07 schema. */
export function toDraft07(openApi: unknown, where: string): Schema {
  if (!isSchema(openApi)) throw new Error(`${where}: a schema must be an object, got ${JSON.stringify(openApi)}`);
  const out: Schema = {};
  let nullable = false;
  for (const [keyword, value] of Object.entries(openApi)) {
    const at = `${where}/${keyword}`;
    if (keyword === 'nullable') {
      if (typeof value !== 'boolean') throw new Error(`${at}: must be a boolean`);
      nullable = value;
    } else if (keyword === 'example') {
      out.examples = [value];
    } else if (keyword === '$ref') {
      out.$ref = definitionRef(value, at);
    } else if (keyword === 'format') {
      if (typeof value !== 'string') throw new Error(`${at}: must be a string`);
      if (DRAFT_07_FORMATS.has(value)) out.format = value;
      else if (!OPENAPI_ONLY_FORMATS.has(value)) throw new Error(`${at}: format "${value}" is neither a draft-07 format nor an OpenAPI one`);
    } else if (keyword === 'exclusiveMinimum' || keyword === 'exclusiveMaximum') {
      // OpenAPI 3.0 (draft-04 style): a boolean beside minimum/maximum; draft-07: the bound itself.
      if (typeof value === 'number') out[keyword] = value;
      else if (value === true) {
        const bound = keyword === 'exclusiveMinimum' ? 'minimum' : 'maximum';
        if (typeof openApi[bound] !== 'number') throw new Error(`${at}: true without a numeric ${bound}`);
        out[keyword] = openApi[bound];
      } else if (value !== false) throw new Error(`${at}: must be a number or a boolean`);
    } else if (OPENAPI_ONLY_ANNOTATIONS.has(keyword) || keyword.startsWith('x-')) {
      continue;
    } else if (!DRAFT_07_KEYWORDS.has(keyword)) {
      throw new Error(`${at}: "${keyword}" is not a draft-07 keyword`);
    } else if (keyword === 'properties' || keyword === 'patternProperties') {
      if (!isSchema(value)) throw new Error(`${at}: must be an object`);
      out[keyword] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, toDraft07(sub, `${at}/${name}`)]));
    } else if (keyword === 'allOf' || keyword === 'anyOf' || keyword === 'oneOf') {
      if (!Array.isArray(value) || value.length === 0) throw new Error(`${at}: must be a non-empty array`);
      out[keyword] = value.map((sub, index) => toDraft07(sub, `${at}/${index}`));
    } else if (['items', 'additionalItems', 'additionalProperties', 'not', 'contains', 'propertyNames', 'if', 'then', 'else'].includes(keyword)) {
      out[keyword] = typeof value === 'boolean' ? value : Array.isArray(value) ? value.map((sub, index) => toDraft07(sub, `${at}/${index}`)) : toDraft07(value, at);
    } else {
      out[keyword] = value;
    }
  }
  // Bounds that became exclusive are not also inclusive.
  if (out.exclusiveMinimum !== undefined && openApi.exclusiveMinimum === true) delete out.minimum;
  if (out.exclusiveMaximum !== undefined && openApi.exclusiveMaximum === true) delete out.maximum;
  // Draft-07 ignores every keyword beside a $ref: keep the annotations, move the rest into allOf.
  if (out.$ref !== undefined && Object.keys(out).some((keyword) => keyword !== '$ref' && !ANNOTATIONS.includes(keyword))) {
    const { $ref, ...rest } = out;
    const annotations = pick(rest, ANNOTATIONS);
    const constraints = omit(rest, ANNOTATIONS);
    return withNull({ ...annotations, allOf: [{ $ref }, ...(Object.keys(constraints).length > 0 ? [constraints] : [])] }, nullable, where);
  }
  return withNull(out, nullable, where);
}

function pick(schema: Schema, keys: readonly string[]): Schema {
  return Object.fromEntries(Object.entries(schema).filter(([key]) => keys.includes(key)));
}

function omit(schema: Schema, keys: readonly string[]): Schema {
  return Object.fromEntries(Object.entries(schema).filter(([key]) => !keys.includes(key)));
}

/**
 * OpenAPI's `nullable: true` as draft-07: `null` joins a plain `type` (and `enum`); a schema made
 * of references or combinators becomes `anyOf: [that schema, {type: 'null'}]`.
 */
function withNull(schema: Schema, nullable: boolean, where: string): Schema {
  if (!nullable) return schema;
  const combined = ['$ref', 'allOf', 'anyOf', 'oneOf', 'not', 'if'].some((keyword) => keyword in schema);
  if (!combined && typeof schema.type === 'string') {
    const enumerated = Array.isArray(schema.enum) ? { enum: schema.enum.includes(null) ? schema.enum : [...(schema.enum as unknown[]), null] } : {};
    return { ...schema, type: [schema.type, 'null'], ...enumerated };
  }
  if (schema.type !== undefined && typeof schema.type !== 'string') throw new Error(`${where}: nullable beside a type list`);
  const annotations = pick(schema, ANNOTATIONS);
  let inner = omit(schema, ANNOTATIONS);
  // `{type: 'object', allOf: [{$ref}]}` is the referenced schema itself (which says it is an object).
  if (inner.type === 'object' && Array.isArray(inner.allOf) && Object.keys(inner).length === 2) inner = omit(inner, ['type']);
  if (Array.isArray(inner.allOf) && inner.allOf.length === 1 && Object.keys(inner).length === 1) inner = inner.allOf[0] as Schema;
  if (Array.isArray(inner.enum)) inner = { ...inner, enum: (inner.enum as unknown[]).filter((value) => value !== null) };
  // A bare oneOf/anyOf takes null as one more branch (no other branch accepts null, or it already is nullable).
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const branches = inner[keyword];
    if (Array.isArray(branches) && Object.keys(inner).length === 1) {
      const hasNull = branches.some((branch) => isSchema(branch) && (branch.type === 'null' || (Array.isArray(branch.type) && branch.type.includes('null'))));
      return { ...annotations, [keyword]: hasNull ? branches : [...branches, { type: 'null' }] };
    }
  }
  return { ...annotations, anyOf: [inner, { type: 'null' }] };
}

/** The names of every component `rootName` needs, itself included, in first-use order. */
export function componentsUsedBy(rootName: string, components: Record<string, Schema>, where: string): string[] {
  const used = new Set<string>();
  const visit = (name: string) => {
    if (!components[name]) throw new Error(`${where}: the schema refers to ${name || '(empty $ref)'}, which the document does not define`);
    if (used.has(name)) return;
    used.add(name);
    JSON.stringify(components[name], (key, value: unknown) => {
      if (key === '$ref' && typeof value === 'string') visit(referencedName(definitionRef(value, `${where}/${name}`)));
      return value;
    });
  };
  visit(rootName);
  return [...used];
}

/** The envelope every message is, in both modes (`MessageEnvelope` in libs/contracts). */
function envelopeProperties(payloadName: string): Schema {
  return {
    eventId: { type: 'string', minLength: 1, description: 'Unique per event (per topic); consumers use it to stay idempotent under redelivery.' },
    accountId: { type: 'string', minLength: 1, description: 'The account the event belongs to.' },
    environment: { type: 'string', enum: ['test', 'live'], description: "The data set: the API key's `_test_` or `_live_` environment." },
    subjectId: { type: 'string', minLength: 1, description: "The entity whose events stay in order (customer or supplier id); the message key is `accountId:environment:subjectId`." },
    acceptedAt: { type: 'integer', description: 'When the service accepted the event, epoch milliseconds.' },
    traceId: { type: 'string', minLength: 1, description: "The HTTP request's trace id (x-trace-id)." },
    payload: { $ref: `#/definitions/${payloadName}` },
  };
}

/**
 * The standalone draft-07 schema of every message on `topic`: the envelope, with the payload
 * class `payloadName` and every component it uses under `definitions`.
 */
export function topicMessageSchema(topic: string, payloadName: string, components: Record<string, Schema>): Schema {
  const used = componentsUsedBy(payloadName, components, topic);
  const properties = envelopeProperties(payloadName);
  return {
    $schema: JSON_SCHEMA_DRAFT,
    $id: `${SCHEMA_ID_BASE}${topic}.json`,
    title: `${topic} message`,
    description: `Every message on ${topic}: the envelope, with the ${payloadName} payload under \`payload\` (JSON Schema draft-07). Times are epoch milliseconds. Consumers must ignore fields they do not know.`,
    type: 'object',
    properties,
    required: Object.keys(properties),
    definitions: Object.fromEntries(used.sort().map((name) => [name, toDraft07(components[name], `${topic}#/definitions/${name}`)])),
  };
}
