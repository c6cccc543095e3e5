import { BusTimeoutError } from '@ringfence/bus';
import type { MessageEnvelope, RuleCheckpoint } from '@ringfence/contracts';
import type { StoredDecisionRecord } from '@ringfence/scoring-engine';
import { leafPath } from '@ringfence/entities';
import type { CheckpointFacts } from '../checkpoint-facts';
import type { EntityReference } from '../checkpoint-definition';
import { ASK_ONCE, SubjectVerdicts, VerdictMemo } from './subject-verdicts';

const message = { accountId: 'acc_1', environment: 'test', eventId: 'evt', subjectId: 's', acceptedAt: 0, traceId: 't', payload: {} } as MessageEnvelope<unknown>;
const T0 = 1_766_000_000_000;

interface Owners {
  /** Current labels per customer id: review and the time labelling applied it. */
  labels?: Record<string, { review: string; eventTime: number }>;
  /** Per transaction id, its disputes as ingestion stores them on the transaction document. */
  disputes?: Record<string, Record<string, boolean>>;
  /** Customers whose document holds a chargeback not forgiven. */
  chargebacked?: string[];
  /** Label reads that time out before the owner answers. */
  labelTimeouts?: number;
  /** Per transaction id, its current analyst's review as labelling answers it. */
  reviews?: Record<string, 'approve' | 'decline' | 'fraud' | 'not_fraud'>;
}

/** Owners as `CheckpointFacts` asks them, counting the requests. */
function owners({ labels = {}, disputes = {}, chargebacked = [], labelTimeouts = 0, reviews = {} }: Owners) {
  const asked = { labels: 0, documentReads: 0, documentsRead: 0, customerDocuments: 0, reviewReads: [] as number[] };
  const facts = {
    currentLabels: async (_message: unknown, subject: { id: string }) => {
      asked.labels += 1;
      if (asked.labels <= labelTimeouts) throw new BusTimeoutError('ringfence.rpc.labelling.read-current-labels.v1', 500);
      const label = labels[subject.id];
      return label === undefined ? {} : { PAYMENT_FRAUD: { ...label, reviewer: null, comment: null } };
    },
    entities: async (_message: unknown, subject: { id: string }) => {
      asked.customerDocuments += 1;
      const fields = chargebacked.includes(subject.id) ? { chargebacks: { 'dsp-x': { forgiven: false } } } : {};
      return { subject: { fields, fieldTimestamps: {} }, references: [] };
    },
    documents: async (_message: unknown, references: EntityReference[]) => {
      asked.documentReads += 1;
      asked.documentsRead += references.length;
      if (references.length > 16) throw new Error('more documents than one read may name');
      return references.map(({ id }) => {
        const entries = disputes[id];
        if (entries === undefined) return { fields: { amount: 10 }, fieldTimestamps: {} };
        // Each dispute recorded at its own time, as ingestion merges it: dispute n of a payment at T0 + n days.
        const fieldTimestamps = Object.fromEntries(Object.keys(entries).map((disputeId, index) => [leafPath('chargebacks', disputeId, 'forgiven'), T0 + (index + 1) * 86_400_000]));
        return { fields: { chargebacks: Object.fromEntries(Object.entries(entries).map(([disputeId, forgiven]) => [disputeId, { forgiven }])) }, fieldTimestamps };
      });
    },
    paymentReviews: async (_message: unknown, transactionIds: string[]) => {
      asked.reviewReads.push(transactionIds.length);
      if (transactionIds.length > 100) throw new Error('more payments than one read may name');
      return transactionIds.map((id) => (reviews[id] === undefined ? null : { decision: reviews[id], at: T0 }));
    },
  } as unknown as CheckpointFacts;
  return { facts, asked };
}

/** A PSP decision of `customerId`'s payment `transactionId`, decided (service clock) at `decidedAt`. */
const payment = (customerId: string, transactionId: string, decidedAt = T0): StoredDecisionRecord => ({
  scoreId: `scr_${transactionId}`,
  checkpoint: 'pspBeforeAuth',
  timestamp: decidedAt,
  decidedAt,
  subjectKind: 'customer',
  subjectId: customerId,
  action: 'ALLOW',
  event: { checkpoint: 'transaction', subject: { kind: 'customer', id: customerId }, context: { payload: { transaction: { transactionId } } }, features: {} },
});

const judge = (facts: CheckpointFacts, checkpoint: RuleCheckpoint, records: StoredDecisionRecord[], memo = new VerdictMemo()) =>
  new SubjectVerdicts(facts).judge(message, checkpoint, records, memo);

describe(SubjectVerdicts.name, () => {
  it("at a payment checkpoint, makes a genuine cardholder's one disputed payment the only positive, reading the transactions' documents", async () => {
    const { facts, asked } = owners({ disputes: { 'tx-2': { 'dsp-1': false } }, chargebacked: ['cus-card-abused'] });
    const records = ['tx-1', 'tx-2', 'tx-3'].map((id) => payment('cus-card-abused', id));

    const verdicts = await judge(facts, 'pspBeforeAuth', records);

    // The dispute's own time comes with it: training reads from it how long disputes take.
    expect(verdicts).toEqual([{ verdict: 'unknown' }, { verdict: 'fraud', reason: 'disputedPayment', disputedAt: T0 + 86_400_000 }, { verdict: 'unknown' }]);
    // The customer's chargebacks do not decide a payment: its document is not read.
    expect(asked.customerDocuments).toBe(0);
  });

  it('reads a forgiven dispute as genuine, and a FRAUDSTER label as fraud only for payments decided at or after it', async () => {
    const { facts } = owners({ disputes: { 'tx-won': { 'dsp-won': true } }, labels: { 'cus-late': { review: 'FRAUDSTER', eventTime: T0 + 1_000 } } });

    const verdicts = await judge(facts, 'pspAfterAuth', [payment('cus-ok', 'tx-won'), payment('cus-late', 'tx-before', T0), payment('cus-late', 'tx-at', T0 + 1_000), payment('cus-late', 'tx-after', T0 + 5_000)]);

    expect(verdicts).toEqual([
      { verdict: 'genuine' },
      { verdict: 'unknown' },
      { verdict: 'fraud', reason: 'customerLabelledFraudster' },
      { verdict: 'fraud', reason: 'customerLabelledFraudster' },
    ]);
  });

  it('asks for transaction documents in reads of at most 16, and for each subject once per memo', async () => {
    const { facts, asked } = owners({});
    const memo = new VerdictMemo();
    const records = Array.from({ length: 40 }, (_, index) => payment(`cus-${index % 4}`, `tx-${index}`));

    await judge(facts, 'pspBeforeAuth', records, memo);
    await judge(facts, 'pspBeforeAuth', records.slice(0, 8), memo);

    expect(asked.documentReads).toBe(3 + 1);
    expect(asked.documentsRead).toBe(40 + 8);
    expect(asked.labels).toBe(4);
  });

  it("reads each payment's current analyst's review from labelling: fraud and not_fraud decide, after the payment's own dispute, before the customer's label", async () => {
    const { facts, asked } = owners({
      reviews: { 'tx-marked': 'fraud', 'tx-cleared': 'not_fraud', 'tx-approved': 'approve', 'tx-disputed': 'not_fraud' },
      disputes: { 'tx-disputed': { 'dsp-1': false } },
      labels: { 'cus-fraudster': { review: 'FRAUDSTER', eventTime: 0 } },
    });

    const verdicts = await judge(facts, 'pspBeforeAuth', [
      payment('cus-1', 'tx-marked'),
      payment('cus-fraudster', 'tx-cleared'),
      payment('cus-1', 'tx-approved'),
      payment('cus-1', 'tx-disputed'),
      payment('cus-1', 'tx-none'),
    ]);

    expect(verdicts).toEqual([
      { verdict: 'fraud', reason: 'analystMarkedFraud' },
      { verdict: 'genuine' },
      { verdict: 'unknown' },
      { verdict: 'fraud', reason: 'disputedPayment', disputedAt: T0 + 86_400_000 },
      { verdict: 'unknown' },
    ]);
    expect(asked.reviewReads).toEqual([5]);
  });

  it("asks for payments' reviews in reads of at most 100, each payment once, and not at all away from payments", async () => {
    const { facts, asked } = owners({});
    const records = Array.from({ length: 250 }, (_, index) => payment(`cus-${index % 4}`, `tx-${index % 230}`));

    await judge(facts, 'pspAfterAuth', records);
    expect(asked.reviewReads).toEqual([100, 100, 30]);

    const atCustomer = { ...payment('cus-1', 'tx-1'), checkpoint: 'customer', event: { subject: { kind: 'customer', id: 'cus-1' }, features: {} } };
    await judge(facts, 'customer', [atCustomer]);
    expect(asked.reviewReads).toHaveLength(3);
  });

  it("at a customer checkpoint, reads the customer's chargebacks and labels (the customer-level verdict)", async () => {
    const { facts } = owners({ chargebacked: ['cus-charged'], labels: { 'cus-labelled': { review: 'GENUINE', eventTime: 0 } } });
    const atCustomer = (customerId: string) => ({ ...payment(customerId, 'unused'), checkpoint: 'customer', event: { subject: { kind: 'customer', id: customerId }, features: {} } });

    const verdicts = await judge(facts, 'customer', [atCustomer('cus-charged'), atCustomer('cus-labelled'), atCustomer('cus-none')]);

    expect(verdicts).toEqual([{ verdict: 'fraud', reason: 'customerFraud' }, { verdict: 'genuine' }, { verdict: 'unknown' }]);
  });

  it('asks again, with patience, an owner that did not answer in time; asking once gives up', async () => {
    const patient = owners({ labelTimeouts: 2, labels: { 'cus-1': { review: 'GENUINE', eventTime: 0 } } });
    const verdicts = await new SubjectVerdicts(patient.facts).judge(message, 'pspBeforeAuth', [payment('cus-1', 'tx-1')], new VerdictMemo(), { attempts: 3, firstDelayMs: 1 });
    expect(verdicts).toEqual([{ verdict: 'genuine' }]);

    const hasty = owners({ labelTimeouts: 1 });
    await expect(new SubjectVerdicts(hasty.facts).judge(message, 'pspBeforeAuth', [payment('cus-1', 'tx-1')], new VerdictMemo(), ASK_ONCE)).rejects.toBeInstanceOf(BusTimeoutError);
  });
});
