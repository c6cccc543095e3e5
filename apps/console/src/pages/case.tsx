import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { type Api, dataOf, segment } from '../api';
import { CaseActions } from '../components/case-actions';
import { CaseStatusBadge } from '../components/case-list';
import { DecisionWhy } from '../components/decision-why';
import { ActionBadge, ErrorNotice, FieldList, Section, useLoad } from '../components/common';
import { useCurrentUser, useMayReview } from '../components/current';
import { EvidenceSection } from '../components/evidence';
import { LabelForm } from '../components/label-form';
import { NetworkSection } from '../components/network-section';
import { PaymentActions } from '../components/payment-review';
import { formatMoney, formatStructured, formatTime } from '../format';
import { href } from '../router';
import type { CaseDetail } from '../types';

/**
 * One case: who and what it is about, who holds it and the actions on it, its decisions (each
 * payment decided on its row), notes, the audit trail, then the customer's evidence and network.
 */
export function CasePage({ api, reviewer, caseId }: { api: Api; reviewer: string; caseId: string }) {
  const me = useCurrentUser(api);
  const [generation, setGeneration] = useState(0);
  const detail = useLoad(async () => dataOf(await api.get<{ data: CaseDetail }>(`/v2/cases/${segment(caseId)}`)), `${caseId}#${generation}`);
  const reload = () => setGeneration((value) => value + 1);
  const data = detail.data;
  const item = data?.case;
  return (
    <main id="main" tabIndex={-1}>
      <h1>
        Case{' '}
        {item ? (
          <a href={href({ page: 'subject', subjectType: item.subjectType, subjectId: item.subjectId })}>
            {item.subjectType} <span class="mono">{item.subjectId}</span>
          </a>
        ) : (
          <span class="mono">{caseId}</span>
        )}{' '}
        {item ? <CaseStatusBadge item={item} /> : null}
      </h1>
      <ErrorNotice error={detail.error} />
      {data && item ? (
        <>
          <Section title="The case" id="case-summary">
            <FieldList
              fields={[
                ['Checkpoints', item.checkpoints.join(', ') || '—'],
                ['Decisions', String(item.decisionCount)],
                ['Highest score', String(item.maxScore ?? '—')],
                ['Amount', item.totalAmount ? formatMoney(item.totalAmount.amount, item.totalAmount.currency) : '—'],
                ['Opened', formatTime(item.openedAt)],
                ['Last decision', formatTime(item.lastDecisionAt)],
                ['Closed', formatTime(item.closedAt)],
              ]}
            />
            <CaseActions api={api} item={item} me={me} onChanged={reload} />
          </Section>
          <CaseDecisions api={api} detail={data} onChanged={reload} />
          <div class="columns">
            <Notes api={api} detail={data} onAdded={reload} />
            {item.subjectType === 'customer' || item.subjectType === 'supplier' ? (
              <Section title="Label the subject" id="case-label">
                <LabelForm api={api} reviewer={reviewer} subjectType={item.subjectType} subjectId={item.subjectId} checkpoint={item.checkpoints.length === 1 ? item.checkpoints[0] : undefined} idPrefix="case" onLabelled={reload} />
              </Section>
            ) : null}
          </div>
          <AuditTrail detail={data} />
          {item.subjectType === 'customer' ? <EvidenceSection api={api} customerId={item.subjectId} generation={generation} onReviewed={reload} /> : null}
          <NetworkSection api={api} base={`/v2/${item.subjectType}/${segment(item.subjectId)}`} subjectKey={`${item.subjectType}/${item.subjectId}`} />
        </>
      ) : null}
    </main>
  );
}

function CaseDecisions({ api, detail, onChanged }: { api: Api; detail: CaseDetail; onChanged: () => void }) {
  return (
    <Section title="Decisions in this case" id="case-decisions">
      <table class="case-decisions">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Checkpoint</th>
            <th scope="col">Action</th>
            <th scope="col">Score</th>
            <th scope="col">Payment</th>
            <th scope="col">Amount</th>
            <th scope="col">Review</th>
          </tr>
        </thead>
        <tbody>
          {detail.decisions.map((decision) => (
            <Fragment key={decision.scoreId}>
              <tr data-score-id={decision.scoreId}>
                <td>{formatTime(decision.timestamp)}</td>
                <td>{decision.checkpoint}</td>
                <td>
                  <ActionBadge action={decision.action} />
                </td>
                <td class="score">{decision.score ?? '—'}</td>
                <td class="mono">
                  {decision.transactionId ?? '—'}
                  {decision.orderId ? <div class="muted">order {decision.orderId}</div> : null}
                </td>
                <td class="amount">{decision.amount === undefined ? '—' : formatMoney(decision.amount, decision.currency)}</td>
                <td>{decision.transactionId ? <PaymentActions api={api} transactionId={decision.transactionId} review={decision.review} onChanged={onChanged} /> : <span class="muted">no payment</span>}</td>
              </tr>
              <tr class="why-row" data-why-for={decision.scoreId}>
                <td colSpan={7}>
                  <DecisionWhy api={api} scoreId={decision.scoreId} />
                </td>
              </tr>
            </Fragment>
          ))}
        </tbody>
      </table>
    </Section>
  );
}

function Notes({ api, detail, onAdded }: { api: Api; detail: CaseDetail; onAdded: () => void }) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const mayReview = useMayReview();
  async function add(event: Event) {
    event.preventDefault();
    if (!text.trim()) return;
    setBusy(true);
    setError(null);
    try {
      await api.send('POST', `/v2/cases/${segment(detail.case.caseId)}/notes`, { text: text.trim() });
      setText('');
      onAdded();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }
  return (
    <Section title="Notes" id="case-notes">
      {detail.notes.length === 0 ? <p class="muted">No note yet.</p> : null}
      <ul class="notes">
        {detail.notes.map((note) => (
          <li key={note.noteId}>
            <p>{note.text}</p>
            <p class="muted">
              {note.author}, {formatTime(note.at)}
            </p>
          </li>
        ))}
      </ul>
      <form onSubmit={(event) => void add(event)} hidden={!mayReview}>
        <label for="case-note">Add a note</label>
        <textarea id="case-note" rows={2} maxLength={4000} value={text} onInput={(event) => setText(event.currentTarget.value)} />
        <button type="submit" disabled={busy || !text.trim()}>
          Add the note
        </button>
        <ErrorNotice error={error} />
      </form>
    </Section>
  );
}

/** Every action on the case, with the person who took it and when (local time), oldest first. */
function AuditTrail({ detail }: { detail: CaseDetail }) {
  return (
    <Section title="Audit trail" id="case-audit">
      <table class="audit">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">What</th>
            <th scope="col">Detail</th>
          </tr>
        </thead>
        <tbody>
          {detail.audit.map((entry, index) => (
            <tr key={index}>
              <td>{formatTime(entry.at)}</td>
              <td class="actor">{entry.actor}</td>
              <td>{entry.action.replace(/_/g, ' ')}</td>
              <td>{entry.detail === undefined || entry.detail === null ? '' : formatStructured(entry.detail)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Section>
  );
}
