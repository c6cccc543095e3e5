import { randomUUID } from 'node:crypto';
import type { BreachedCredential } from '@ringfence/credentials';
import type { EvidenceItem, IndicatorSighting, IndicatorSubmission } from '@ringfence/lookup';

const unique = () => randomUUID().replaceAll('-', '');

/** A seen time in epoch ms; tests pass their own to compare. */
export const SEEN_AT = 1_763_800_000_000;

export function buildSighting(overrides: Partial<IndicatorSighting> = {}): IndicatorSighting {
  return { kind: 'email', value: `fraud-${unique()}@example.com`, seenAt: SEEN_AT, ...overrides };
}

export function buildChargeback(overrides: Partial<EvidenceItem> = {}): EvidenceItem {
  const evidenceId = overrides.evidenceId ?? `cb-${unique()}`;
  return {
    evidenceKind: 'chargeback',
    evidenceId,
    details: { chargebackId: evidenceId, reason: 'FRAUD', amount: 1999, currency: 'GBP' },
    ...overrides,
  };
}

export function buildManualReview(overrides: Partial<EvidenceItem> = {}): EvidenceItem {
  const evidenceId = overrides.evidenceId ?? `rev-${unique()}`;
  return {
    evidenceKind: 'manualReview',
    evidenceId,
    details: { reviewId: evidenceId, comment: 'stolen card', reviewer: { name: 'Grace Hopper' } },
    ...overrides,
  };
}

export function buildReport(): EvidenceItem {
  return { evidenceKind: 'report', evidenceId: 'report', details: {} };
}

export function buildSubmission(overrides: Partial<IndicatorSubmission> = {}): IndicatorSubmission {
  return { indicators: [buildSighting()], evidence: [buildChargeback()], ...overrides };
}

/** A breached pair with a username no other test uses. */
export function buildBreachedCredential(overrides: Partial<BreachedCredential> = {}): BreachedCredential {
  return { username: `user-${unique()}@example.com`, passwordHash: `${unique()}${unique()}`, ...overrides };
}
