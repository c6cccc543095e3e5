import { randomUUID } from 'node:crypto';
import type { LabelApplication, LabelSubject } from '@ringfence/labels';

export function buildLabelSubject(overrides: Partial<LabelSubject> = {}): LabelSubject {
  return {
    accountId: `acc_${randomUUID().replaceAll('-', '')}`,
    environment: 'live',
    kind: 'customer',
    subjectId: `cus_${randomUUID().replaceAll('-', '')}`,
    ...overrides,
  };
}

let clock = 1_764_100_000_000;

/** A review with a later eventTime than the previous one built, so histories read naturally. */
export function buildLabelApplication(overrides: Partial<LabelApplication> = {}): LabelApplication {
  clock += 1_001;
  return {
    category: 'PAYMENT_FRAUD',
    review: 'FRAUDSTER',
    eventTime: clock,
    reviewer: { name: 'Grace Hopper', email: 'grace.hopper@merchant.example' },
    comment: 'chargeback confirmed',
    ...overrides,
  };
}
