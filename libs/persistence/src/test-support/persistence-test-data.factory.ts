import { randomUUID } from 'node:crypto';
import type { Account, ApiKeyRecord } from '@ringfence/accounts';
import type { MessageEnvelope } from '@ringfence/contracts';
import type { EntityDocument, EntityRef } from '@ringfence/entities';

const uniqueId = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '')}`;


export function buildAccount(overrides: Partial<Account> = {}): Account {
  const id = overrides.id ?? uniqueId('acc');
  return {
    id,
    name: `account ${id}`,
    industry: 'marketplace',
    settings: { voucherAbuseEnabled: true },
    createdAt: new Date(),
    ...overrides,
  };
}

export function buildApiKey(overrides: Partial<ApiKeyRecord> & Pick<ApiKeyRecord, 'accountId'>): ApiKeyRecord {
  return {
    id: uniqueId('key'),
    kind: 'secret',
    environment: 'test',
    keyHash: randomUUID().replaceAll('-', '').repeat(2),
    displayPrefix: 'sk_test_AbCd',
    createdAt: new Date(),
    revokedAt: null,
    ...overrides,
  };
}

export function buildEntityRef(overrides: Partial<EntityRef> = {}): EntityRef {
  return {
    accountId: uniqueId('acc'),
    environment: 'live',
    kind: 'customer',
    entityId: uniqueId('cus'),
    ...overrides,
  };
}

export function buildEntityDocument(overrides: Partial<EntityDocument> = {}): EntityDocument {
  return {
    fields: { email: 'someone@example.com', address: { country: 'GBR' } },
    fieldTimestamps: { '/email': 1_700_000_000_000, '/address/country': 1_700_000_000_000 },
    ...overrides,
  };
}

export function buildEnvelope(overrides: Partial<MessageEnvelope<unknown>> = {}): MessageEnvelope<unknown> {
  return {
    eventId: uniqueId('evt'),
    accountId: uniqueId('acc'),
    environment: 'live',
    subjectId: uniqueId('cus'),
    acceptedAt: 1_700_000_000_123,
    traceId: uniqueId('trace'),
    payload: { customer: { customerId: 'cus_1', email: 'someone@example.com' } },
    ...overrides,
  };
}

/** A topic of its own per test, so tests sharing one database never read each other's events. */
export function buildTopic(): string {
  return `ringfence.test.${randomUUID()}.v1`;
}
