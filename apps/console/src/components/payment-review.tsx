import { useEffect, useRef, useState } from 'preact/hooks';
import { type Api, segment } from '../api';
import { formatTime } from '../format';
import type { CurrentReview, PaymentDecision, PaymentReview } from '../types';
import { ErrorNotice } from './common';
import { useMayReview } from './current';

const DECISIONS: Array<{ decision: PaymentDecision; label: string }> = [
  { decision: 'approve', label: 'Approve' },
  { decision: 'decline', label: 'Decline' },
  { decision: 'fraud', label: 'Mark fraud' },
  { decision: 'not_fraud', label: 'Not fraud' },
];

const DECIDED: Record<PaymentDecision, string> = { approve: 'approved', decline: 'declined', fraud: 'marked fraud', not_fraud: 'marked not fraud' };

/** Names a review as the server holds it: what the case read brings is compared by it. */
const reviewKey = (review: CurrentReview | null | undefined) => (review ? `${review.decision}@${review.at}` : 'none');

/**
 * One payment's review (`POST /v2/payments/:transactionId/review`): approve, decline, mark fraud
 * or not fraud, and undo (`DELETE`, the audit trail keeps both). Shows who decided and when.
 */
export function PaymentActions({ api, transactionId, review, onChanged }: { api: Api; transactionId: string; review: CurrentReview | null | undefined; onChanged: () => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [current, setCurrent] = useState<CurrentReview | null | undefined>(review);
  const path = `/v2/payments/${segment(transactionId)}/review`;
  // The review read with the case or the evidence follows into the same elements (no remount: the button under
  // the pointer or the focus stays), except a read made before this page's own last change,
  // which would briefly bring the undone review back.
  const expected = useRef<string | null>(null);
  const serverKey = reviewKey(review);
  useEffect(() => {
    if (expected.current !== null && expected.current !== serverKey) return;
    expected.current = null;
    setCurrent(review);
  }, [serverKey]);

  async function run(action: () => Promise<CurrentReview | null>) {
    setBusy(true);
    setError(null);
    try {
      const changed = await action();
      expected.current = reviewKey(changed);
      setCurrent(changed);
      onChanged();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  const decide = (decision: PaymentDecision) => run(async () => (await api.send<{ data: PaymentReview }>('POST', path, { decision })).data);
  const undo = () =>
    run(async () => {
      await api.send('DELETE', path);
      return null;
    });

  const mayReview = useMayReview();
  return (
    <div class="payment-actions" data-transaction-id={transactionId}>
      {!mayReview ? (
        <p class="payment-review muted">{current ? `${DECIDED[current.decision] ?? current.decision} by ${current.actor}, ${formatTime(current.at)}` : 'not reviewed'}</p>
      ) : current ? (
        <p class="payment-review">
          <strong>{DECIDED[current.decision] ?? current.decision}</strong> by {current.actor}, {formatTime(current.at)}{' '}
          <button type="button" class="secondary small" disabled={busy} onClick={() => void undo()}>
            Undo
          </button>
        </p>
      ) : (
        <div class="buttons" role="group" aria-label={`Decide payment ${transactionId}`}>
          {DECISIONS.map(({ decision, label }) => (
            <button key={decision} type="button" class={`small decide-${decision}`} disabled={busy} onClick={() => void decide(decision)}>
              {label}
            </button>
          ))}
        </div>
      )}
      <ErrorNotice error={error} />
    </div>
  );
}
