import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ConnectRequestDto,
  CustomerRequestDto,
  EVENT_PAYLOAD_CLASSES,
  type EventTopic,
  EventTopics,
  PayoutRequestDto,
  PspDisputeRequestDto,
  PspTransactionRequestDto,
  RefundRequestDto,
  RegistrationRequestDto,
  SupplierRequestDto,
  VoucherRedemptionRequestDto,
  VoucherRequestDto,
  normaliseTimestamps,
  toWireJson,
} from '@ringfence/contracts';
import { type InputClass, validateInput } from '@ringfence/service-runtime';
import { FEED_SCHEMAS_DIRECTORY, FeedSchemaError, assertFeedMessage, compileFeedSchemas, feedMessageProblems, feedPayloadProblems, feedSchemaCounts } from '../support/feed-schemas';
import { loadFixtures } from './fixture-loader';

/**
 * The published topic schemas (docs/contracts/schemas) are valid JSON Schema under the draft
 * they declare, compiled by Ajv in strict mode with ajv-formats, and accept what is published:
 * here the golden request fixtures turned into the payloads the gateway publishes for them (the
 * validated body with its times in epoch milliseconds). The events the services really publish
 * are checked by the in-process API tests (test/support/embedded-service.ts validates every
 * logged event when a test file closes its app).
 */

const schemaFiles = readdirSync(FEED_SCHEMAS_DIRECTORY).filter((file) => file.endsWith('.json')).sort();

/** Ingest topics whose payload is the validated request body (plus what `extra` adds, as the gateway does). */
const INGEST_FIXTURES: Record<string, { topic: EventTopic; body: InputClass<object>; extra?: Record<string, unknown> }> = {
  customer: { topic: EventTopics.customerUpdated, body: CustomerRequestDto },
  supplier: { topic: EventTopics.supplierUpdated, body: SupplierRequestDto },
  registration: {
    topic: EventTopics.registrationSubmitted,
    body: RegistrationRequestDto,
    extra: { registrationId: 'reg_01JCZ4B7K2', credentialStatus: { usernameBreached: false, passwordBreached: true } },
  },
  payout: { topic: EventTopics.payoutRequested, body: PayoutRequestDto },
  refund: { topic: EventTopics.refundRequested, body: RefundRequestDto },
  voucher: { topic: EventTopics.voucherCreated, body: VoucherRequestDto },
  'voucher-redemption': { topic: EventTopics.voucherRedemptionSubmitted, body: VoucherRedemptionRequestDto },
  'psp-dispute': { topic: EventTopics.disputeUpdated, body: PspDisputeRequestDto },
  'psp-transaction': { topic: EventTopics.transactionUpdated, body: PspTransactionRequestDto },
  connect: { topic: EventTopics.connectLinked, body: ConnectRequestDto },
};

const envelope = (payload: unknown, overrides: Record<string, unknown> = {}) => ({
  eventId: 'evt_01JCZ5M3',
  accountId: 'acc_01JCZ3V9Q8',
  environment: 'test',
  subjectId: 'cus-61213',
  acceptedAt: 1763800000123,
  traceId: 'req-1',
  payload,
  ...overrides,
});

const labelPayload = (overrides: Record<string, unknown> = {}) => ({
  accountId: 'acc_01JCZ3V9Q8',
  environment: 'test',
  subjectKind: 'customer',
  subjectId: 'cus-61213',
  category: 'PAYMENT_FRAUD',
  review: 'FRAUDSTER',
  previous: null,
  eventTime: 1763800000123,
  reviewer: null,
  comment: null,
  ...overrides,
});

describe('published topic schemas (docs/contracts/schemas)', () => {
  it('has one schema per event topic, each declaring draft-07', () => {
    expect(schemaFiles).toEqual(Object.keys(EVENT_PAYLOAD_CLASSES).map((topic) => `${topic}.json`).sort());
    for (const file of schemaFiles) {
      const schema = JSON.parse(readFileSync(join(FEED_SCHEMAS_DIRECTORY, file), 'utf8')) as Record<string, unknown>;
      expect({ file, $schema: schema.$schema }).toEqual({ file, $schema: 'http://json-schema.org/draft-07/schema#' });
    }
  });

  it('compiles every schema with Ajv in strict mode and ajv-formats', () => {
    expect([...compileFeedSchemas().keys()].map((topic) => `${topic}.json`)).toEqual(schemaFiles);
  });

  it('refuses a schema with an OpenAPI keyword, naming the file', () => {
    const directory = mkdtempSync(join(tmpdir(), 'ringfence-feed-schemas-'));
    try {
      const schema = { $schema: 'http://json-schema.org/draft-07/schema#', $id: 'https://ringfence.example/schemas/bad.json', type: 'object', properties: { payload: { type: 'string', nullable: true } } };
      writeFileSync(join(directory, 'bad.topic.v1.json'), JSON.stringify(schema));
      expect(() => compileFeedSchemas(directory)).toThrow(/^bad\.topic\.v1\.json is not a valid http:\/\/json-schema\.org\/draft-07\/schema schema under strict Ajv: strict mode: unknown keyword: "nullable"/);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  describe.each(Object.entries(INGEST_FIXTURES))('golden fixtures of %s', (slug, { topic, body, extra }) => {
    const { valid } = loadFixtures(slug);

    it.each(valid.map((fixture) => [fixture.name, fixture] as const))('publishes %s as a valid message', async (name, fixture) => {
      const outcome = validateInput(body, fixture.body, 'body');
      if (!outcome.ok) throw new Error(`${name} is not accepted: ${outcome.problems.join('; ')}`);
      const payload = toWireJson(Object.assign(normaliseTimestamps(outcome.value), extra ?? {}));
      expect(feedPayloadProblems(topic, payload, name)).toEqual([]);
      expect(feedMessageProblems(topic, envelope(payload))).toEqual([]);
    });
  });

  it('accepts a label event with and without the nullable fields, and refuses a wrong one readably', () => {
    const topic = EventTopics.customerLabelUpdated;
    expect(feedMessageProblems(topic, envelope(labelPayload()))).toEqual([]);
    expect(feedMessageProblems(topic, envelope(labelPayload({ previous: 'GENUINE', reviewer: { name: 'Grace Hopper' }, comment: 'confirmed' })))).toEqual([]);
    const problems = feedMessageProblems(topic, envelope(labelPayload({ previous: 'MAYBE', reviewer: 'Grace' })));
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^ringfence\.label\.customer\.updated\.v1 event evt_01JCZ5M3: \/payload\/previous must be equal to one of the allowed values: \[.*"FRAUDSTER".*null\] \(got "MAYBE"\)/),
        expect.stringMatching(/\/payload\/reviewer must match a schema in anyOf \(must be object \| must be null\) \(got "Grace"\)/),
      ]),
    );
  });

  it('checks the envelope too: a message without its envelope, or with a wrong one, is refused', () => {
    const topic = EventTopics.customerLabelUpdated;
    expect(feedMessageProblems(topic, labelPayload())).toEqual(expect.arrayContaining([expect.stringMatching(/\(root\) must have required property 'payload'/)]));
    expect(feedMessageProblems(topic, envelope(labelPayload(), { environment: 'staging', acceptedAt: '2025-11-22' }))).toEqual(
      expect.arrayContaining([expect.stringMatching(/\/environment must be equal to one of the allowed values/), expect.stringMatching(/\/acceptedAt must be integer \(got "2025-11-22"\)/)]),
    );
    expect(() => assertFeedMessage(topic, { ...envelope(labelPayload()), eventId: '' })).toThrow(FeedSchemaError);
    expect(() => assertFeedMessage('ringfence.rpc.reply.v1', envelope({}))).toThrow(/no schema is published for this topic/);
  });

  it('counts what it validated', () => {
    const { validated, topics } = feedSchemaCounts();
    expect(validated).toBeGreaterThan(Object.keys(INGEST_FIXTURES).length);
    expect(Object.keys(topics)).toEqual(expect.arrayContaining(Object.values(INGEST_FIXTURES).map(({ topic }) => topic)));
  });
});
