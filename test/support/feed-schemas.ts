import { appendFileSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { type AnySchemaObject, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import Ajv2019 from 'ajv/dist/2019';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/**
 * Validates messages of the warehouse feed against the JSON Schemas published for their topics
 * (`docs/contracts/schemas/<topic>.json`, the files an analyst loads into a schema registry),
 * with Ajv in strict mode plus ajv-formats: a schema that is not valid under its declared draft
 * fails to compile here, and a message the published schema does not accept fails with a
 * readable list of problems.
 *
 * Every message checked is counted (`feedSchemaCounts`). With `FEED_SCHEMA_REPORT` set, each
 * `reportFeedSchemaCounts` prints the counts (`FEED_SCHEMA_REPORT=1`) or appends them as a JSON
 * line to the file it names, so a run's total can be reported.
 */

export const FEED_SCHEMAS_DIRECTORY = join(__dirname, '..', '..', 'docs', 'contracts', 'schemas');

const AJV_OPTIONS: Options = { strict: true, allErrors: true };

/**
 * The Ajv class for each draft a schema may declare, without the keywords Ajv accepts beyond
 * that draft: OpenAPI's `nullable` (an Ajv extension no draft defines) and, in draft-07,
 * `deprecated` (2019-09 metadata). Strict mode then refuses them as unknown keywords.
 */
const VALIDATORS: Record<string, () => Ajv> = {
  'http://json-schema.org/draft-07/schema': () => new Ajv(AJV_OPTIONS).removeKeyword('nullable').removeKeyword('deprecated'),
  'https://json-schema.org/draft/2019-09/schema': () => new Ajv2019(AJV_OPTIONS).removeKeyword('nullable'),
  'https://json-schema.org/draft/2020-12/schema': () => new Ajv2020(AJV_OPTIONS).removeKeyword('nullable'),
};

interface TopicValidators {
  message: ValidateFunction;
  payload: ValidateFunction;
}

/** One published schema file, read but not compiled yet. */
interface SchemaFile {
  file: string;
  schema: AnySchemaObject;
  draft: string;
}

/**
 * The schemas of FEED_SCHEMAS_DIRECTORY, read once, each compiled when a message of its topic is
 * first checked: compiling all of them costs about two seconds, which every embedded service's
 * close would pay although most tests publish on a few topics.
 */
let publishedSchemas: Map<string, SchemaFile> | undefined;
const compiledTopics = new Map<string, TopicValidators>();
const counts = new Map<string, { valid: number; invalid: number }>();

/** A message (or payload) that its topic's published schema does not accept. */
export class FeedSchemaError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`${problems.length} feed schema problem(s):\n  ${problems.slice(0, 50).join('\n  ')}${problems.length > 50 ? `\n  … and ${problems.length - 50} more` : ''}`);
    this.name = 'FeedSchemaError';
  }
}

function readSchemaFiles(directory: string): Map<string, SchemaFile> {
  const files = new Map<string, SchemaFile>();
  for (const file of readdirSync(directory).filter((name) => name.endsWith('.json')).sort()) {
    const schema = JSON.parse(readFileSync(join(directory, file), 'utf8')) as AnySchemaObject;
    const draft = String(schema.$schema ?? '').replace(/#$/, '');
    if (VALIDATORS[draft] === undefined) throw new Error(`${file}: $schema ${JSON.stringify(schema.$schema)} is not a draft this check knows (${Object.keys(VALIDATORS).join(', ')})`);
    if (typeof schema.$id !== 'string') throw new Error(`${file}: the schema has no $id`);
    files.set(file.slice(0, -'.json'.length), { file, schema, draft });
  }
  return files;
}

/** One Ajv per draft, shared by the schemas compiled with it (their $ids are distinct). */
function compileSchema({ file, schema, draft }: SchemaFile, instances: Map<string, Ajv>): TopicValidators {
  let ajv = instances.get(draft);
  if (ajv === undefined) {
    ajv = VALIDATORS[draft]();
    addFormats(ajv);
    instances.set(draft, ajv);
  }
  try {
    const message = ajv.compile(schema);
    const payloadRef = (schema.properties as Record<string, { $ref?: string }> | undefined)?.payload?.$ref;
    if (typeof payloadRef !== 'string' || !payloadRef.startsWith('#/')) throw new Error('properties.payload is not a local $ref');
    const payload = ajv.getSchema(`${String(schema.$id)}${payloadRef}`);
    if (payload === undefined) throw new Error(`${payloadRef} does not resolve`);
    return { message, payload };
  } catch (error) {
    throw new Error(`${file} is not a valid ${draft} schema under strict Ajv: ${(error as Error).message}`);
  }
}

/** Reads and compiles every published schema; throws naming the file whose schema is invalid. */
export function compileFeedSchemas(directory = FEED_SCHEMAS_DIRECTORY): Map<string, TopicValidators> {
  const instances = new Map<string, Ajv>();
  return new Map([...readSchemaFiles(directory)].map(([topic, file]) => [topic, compileSchema(file, instances)]));
}

const sharedInstances = new Map<string, Ajv>();

function validatorsOf(topic: string): TopicValidators {
  const known = compiledTopics.get(topic);
  if (known !== undefined) return known;
  const file = (publishedSchemas ??= readSchemaFiles(FEED_SCHEMAS_DIRECTORY)).get(topic);
  if (file === undefined) throw new FeedSchemaError([`${topic}: no schema is published for this topic (docs/contracts/schemas)`]);
  const validators = compileSchema(file, sharedInstances);
  compiledTopics.set(topic, validators);
  return validators;
}

/** The topics that have a published schema. */
export function feedSchemaTopics(): string[] {
  return [...(publishedSchemas ??= readSchemaFiles(FEED_SCHEMAS_DIRECTORY)).keys()];
}

function valueAt(data: unknown, pointer: string): unknown {
  let value = data;
  for (const part of pointer.split('/').slice(1)) {
    const key = part.replaceAll('~1', '/').replaceAll('~0', '~');
    value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  }
  return value;
}

const got = (data: unknown, pointer: string) => ` (got ${JSON.stringify(valueAt(data, pointer))?.slice(0, 120) ?? 'undefined'})`;
const messageOf = (error: ErrorObject) =>
  `${error.message ?? error.keyword}${error.keyword === 'enum' ? `: ${JSON.stringify((error.params as { allowedValues: unknown[] }).allowedValues)}` : ''}`;

/**
 * One line per problem: the JSON pointer in the message, what the schema wants, the value found.
 * Where a value matched no branch of a `oneOf`/`anyOf`, the branches' complaints about that same
 * value are folded into one line.
 */
function explain(errors: readonly ErrorObject[], data: unknown): string[] {
  const combined = new Map<string, ErrorObject>();
  for (const error of errors) if (error.keyword === 'oneOf' || error.keyword === 'anyOf') combined.set(error.instancePath, error);
  const lines: string[] = [];
  for (const [pointer, error] of combined) {
    const branches = [...new Set(errors.filter((other) => other !== error && other.instancePath === pointer && other.keyword !== 'oneOf' && other.keyword !== 'anyOf').map(messageOf))];
    lines.push(`${pointer || '(root)'} ${messageOf(error)}${branches.length > 0 ? ` (${branches.join(' | ')})` : ''}${got(data, pointer)} [schema ${error.schemaPath}]`);
  }
  for (const error of errors) {
    if (combined.has(error.instancePath)) continue;
    lines.push(`${error.instancePath || '(root)'} ${messageOf(error)}${error.keyword === 'required' ? '' : got(data, error.instancePath)} [schema ${error.schemaPath}]`);
  }
  return lines;
}

function check(topic: string, kind: keyof TopicValidators, data: unknown, label: string): string[] {
  const validate = validatorsOf(topic)[kind];
  const valid = validate(data);
  const count = counts.get(topic) ?? { valid: 0, invalid: 0 };
  counts.set(topic, { valid: count.valid + (valid ? 1 : 0), invalid: count.invalid + (valid ? 0 : 1) });
  return valid ? [] : explain(validate.errors ?? [], data).map((line) => `${topic} ${label}: ${line}`);
}

function eventLabel(message: unknown): string {
  const eventId = typeof message === 'object' && message !== null ? (message as { eventId?: unknown }).eventId : undefined;
  return typeof eventId === 'string' ? `event ${eventId}` : 'message';
}

/** What is wrong with one message as published on `topic` (the whole envelope); [] when it is valid. */
export function feedMessageProblems(topic: string, message: unknown): string[] {
  return check(topic, 'message', message, eventLabel(message));
}

/** Throws a FeedSchemaError unless `message` (the envelope) is valid for `topic`. */
export function assertFeedMessage(topic: string, message: unknown): void {
  const problems = feedMessageProblems(topic, message);
  if (problems.length > 0) throw new FeedSchemaError(problems);
}

/** What is wrong with a payload alone (the envelope's `payload`) for `topic`; [] when it is valid. */
export function feedPayloadProblems(topic: string, payload: unknown, label = 'payload'): string[] {
  return check(topic, 'payload', payload, label);
}

/** Throws a FeedSchemaError unless `payload` is a valid payload of `topic`. */
export function assertFeedPayload(topic: string, payload: unknown, label = 'payload'): void {
  const problems = feedPayloadProblems(topic, payload, label);
  if (problems.length > 0) throw new FeedSchemaError(problems);
}

/** How many messages and payloads were checked so far in this test file, per topic and in total. */
export function feedSchemaCounts(): { validated: number; invalid: number; topics: Record<string, { valid: number; invalid: number }> } {
  const topics = Object.fromEntries([...counts].sort(([a], [b]) => a.localeCompare(b)));
  const all = [...counts.values()];
  return { validated: all.reduce((sum, count) => sum + count.valid + count.invalid, 0), invalid: all.reduce((sum, count) => sum + count.invalid, 0), topics };
}

/**
 * Prints or records, when `FEED_SCHEMA_REPORT` is set (see the file's comment), how many events
 * one check validated (`checked`; summing it over a run's lines gives the run's total) and the
 * counts of this test file so far.
 */
export function reportFeedSchemaCounts(label: string, checked: number): void {
  const target = process.env.FEED_SCHEMA_REPORT;
  if (!target) return;
  const { validated, invalid, topics } = feedSchemaCounts();
  if (target === '1') {
    process.stdout.write(`feed schema check (${label}): ${checked} events validated against their topic's schema (this file so far: ${validated}, ${invalid} invalid, ${Object.keys(topics).length} topics)\n`);
  } else {
    appendFileSync(target, `${JSON.stringify({ label, checked, fileSoFar: { validated, invalid, topics } })}\n`);
  }
}

/** The part of the embedded mode's event log this check reads (`EventLogStore.readAfter`). */
export interface FeedLogReader {
  readAfter(topic: string, afterSequence: number, limit: number): Promise<Array<{ sequence: number; envelope: unknown }>>;
}

/**
 * Validates every event of every topic with a published schema in an event log, after the
 * sequences `from` remembers per topic (updated to the last one read, so a log read again, as
 * after a restart on the same data directory, is not counted twice). Throws one
 * FeedSchemaError listing every problem; answers how many events it validated.
 */
export async function assertEventLogMatchesFeedSchemas(log: FeedLogReader, from: Map<string, number> = new Map()): Promise<number> {
  const problems: string[] = [];
  let validated = 0;
  for (const topic of feedSchemaTopics()) {
    let after = from.get(topic) ?? 0;
    for (;;) {
      const page = await log.readAfter(topic, after, 1000);
      for (const event of page) problems.push(...feedMessageProblems(topic, event.envelope));
      validated += page.length;
      if (page.length === 0) break;
      after = page[page.length - 1].sequence;
    }
    from.set(topic, after);
  }
  if (problems.length > 0) throw new FeedSchemaError(problems);
  return validated;
}
