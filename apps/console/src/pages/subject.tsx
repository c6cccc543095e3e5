import { useState } from 'preact/hooks';
import { type Api, ApiError, dataOf, segment } from '../api';
import { ActionBadge, ErrorNotice, FieldList, Section, useLoad } from '../components/common';
import { SubjectCases } from '../components/case-list';
import { EvidenceSection } from '../components/evidence';
import { LabelForm } from '../components/label-form';
import { NetworkSection } from '../components/network-section';
import { Reasons } from '../components/reasons';
import { formatTime, formatValue, isTimeName } from '../format';
import type { Decision, DecisionPage, Labels, LookupHit, StoredSubject, SubjectType } from '../types';

interface SubjectProps {
  api: Api;
  reviewer: string;
  subjectType: SubjectType;
  subjectId: string;
}

/** Everything known about one customer or supplier, each part from its own API read. */
export function Subject({ api, reviewer, subjectType, subjectId }: SubjectProps) {
  const base = `/v2/${subjectType}/${segment(subjectId)}`;
  const key = `${subjectType}/${subjectId}`;
  const [labelGeneration, setLabelGeneration] = useState(0);
  const stored = useLoad(async () => {
    try {
      return dataOf(await api.get<{ data: StoredSubject }>(base));
    } catch (error) {
      // Never stored (only labelled, or only seen in a decision): the other parts still show.
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    }
  }, key);
  const labels = useLoad(async () => dataOf(await api.get<{ data: Labels }>(`${base}/labels`)), `${key}#${labelGeneration}`);
  const relabelled = () => setLabelGeneration((value) => value + 1);

  return (
    <main id="main" tabIndex={-1}>
      <h1>
        {subjectType === 'customer' ? 'Customer' : 'Supplier'} <span class="mono">{subjectId}</span>
      </h1>
      <div class="columns">
        <Section title="Details" id="details">
          <ErrorNotice error={stored.error} />
          {stored.data === null ? <p class="muted">Nothing stored for this {subjectType}.</p> : null}
          {stored.data ? <StoredDetails subject={stored.data} /> : null}
        </Section>
        <Section title="Labels" id="labels">
          <ErrorNotice error={labels.error} />
          {labels.data ? <LabelsView labels={labels.data} /> : null}
          <LabelForm
            api={api}
            reviewer={reviewer}
            subjectType={subjectType}
            subjectId={subjectId}
            idPrefix="subject"
            lastChange={lastChangeOf(labels.data, subjectType === 'supplier' ? 'SUPPLIER_FRAUD' : 'PAYMENT_FRAUD')}
            onLabelled={relabelled}
          />
          {subjectType === 'customer' ? (
            <LabelForm api={api} reviewer={reviewer} subjectType={subjectType} subjectId={subjectId} checkpoint="refund" idPrefix="subject-refund" lastChange={lastChangeOf(labels.data, 'REFUND_ABUSE')} onLabelled={relabelled} />
          ) : null}
        </Section>
      </div>
      <SubjectCases api={api} subjectType={subjectType} subjectId={subjectId} />
      {subjectType === 'customer' ? <EvidenceSection api={api} customerId={subjectId} generation={labelGeneration} /> : null}
      {stored.data ? <Chargebacks fields={stored.data.fields} /> : null}
      {stored.data ? <LookupHits api={api} fields={stored.data.fields} /> : null}
      <NetworkSection api={api} base={base} subjectKey={key} />
      <Decisions api={api} subjectType={subjectType} subjectId={subjectId} generation={labelGeneration} />
    </main>
  );
}

/** The subject's last label change of `category` (the history is newest last): what an undo reverts. */
const lastChangeOf = (labels: Labels | undefined, category: string) => (labels?.history ?? []).filter((change) => change.category === category).at(-1);

function StoredDetails({ subject }: { subject: StoredSubject }) {
  const entries = Object.entries(subject.fields).filter(([name]) => name !== 'chargebacks');
  return (
    <>
      <p class="muted">Last updated {formatTime(subject.updatedAt)}</p>
      <FieldList fields={entries.map(([name, value]) => [name, isTimeName(name) && typeof value === 'number' ? formatTime(value) : formatValue(value)])} />
    </>
  );
}

function LabelsView({ labels }: { labels: Labels }) {
  const current = Object.entries(labels.labels);
  return (
    <>
      {current.length === 0 ? <p class="muted">No label.</p> : null}
      <FieldList fields={current.map(([category, label]) => [category, <strong>{label.review}</strong>])} />
      {labels.history.length > 0 ? (
        <table>
          <caption>History, newest last</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Category</th>
              <th scope="col">Review</th>
              <th scope="col">Previous</th>
              <th scope="col">Reviewer</th>
              <th scope="col">Comment</th>
            </tr>
          </thead>
          <tbody>
            {labels.history.map((change, index) => (
              <tr key={index}>
                <td>{formatTime(change.eventTime)}</td>
                <td>{change.category}</td>
                <td>{change.review}</td>
                <td>{change.previous ?? '—'}</td>
                <td>{change.reviewer?.name ?? change.reviewer?.email ?? '—'}</td>
                <td>{change.comment ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </>
  );
}

/** The customer's chargebacks as its stored record keeps them: `chargebacks.<id>.forgiven`. */
function Chargebacks({ fields }: { fields: Record<string, unknown> }) {
  const chargebacks = fields.chargebacks;
  if (typeof chargebacks !== 'object' || chargebacks === null) return null;
  const entries = Object.entries(chargebacks as Record<string, { forgiven?: unknown }>);
  return (
    <Section title={`Chargebacks (${entries.length})`} id="chargebacks">
      <ul>
        {entries.map(([chargebackId, entry]) => (
          <li key={chargebackId}>
            <span class="mono">{chargebackId}</span>: {entry?.forgiven === true ? 'forgiven' : 'not forgiven'}
          </li>
        ))}
      </ul>
    </Section>
  );
}

/** The known-fraud lookups of the subject's own e-mail, telephone and IP address. */
function LookupHits({ api, fields }: { api: Api; fields: Record<string, unknown> }) {
  const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);
  const query = { email: text(fields.email), telephone: text(fields.telephone), ipAddress: text(fields.ipAddress) };
  const named = Object.values(query).some(Boolean);
  const hits = useLoad(async () => {
    if (!named) return {};
    return dataOf(await api.get<{ data: Record<string, LookupHit> }>('/v2/lookup', query));
  }, JSON.stringify(query));
  if (!named) return null;
  return (
    <Section title="Lookup hits" id="lookup">
      <ErrorNotice error={hits.error} />
      {hits.data ? (
        <table>
          <thead>
            <tr>
              <th scope="col">Indicator</th>
              <th scope="col">Value</th>
              <th scope="col">Known</th>
              <th scope="col">Chargebacks</th>
              <th scope="col">Manual reviews</th>
              <th scope="col">Reports</th>
              <th scope="col">Last seen</th>
            </tr>
          </thead>
          <tbody>
            {Object.entries(hits.data).map(([indicator, hit]) => (
              <tr key={indicator} class={hit.known ? 'hit' : ''}>
                <td>{indicator}</td>
                <td class="mono">{hit.value}</td>
                <td>{hit.known ? 'yes' : 'no'}</td>
                <td>{hit.chargebacks}</td>
                <td>{hit.manualReviews}</td>
                <td>{hit.sources?.report ?? 0}</td>
                <td>{formatTime(hit.lastSeen)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </Section>
  );
}

const DECISIONS_PAGE = 20;

function Decisions({ api, subjectType, subjectId, generation }: { api: Api; subjectType: SubjectType; subjectId: string; generation: number }) {
  const [extra, setExtra] = useState<{ decisions: Decision[]; cursor: string | null } | null>(null);
  const [moreError, setMoreError] = useState<unknown>(null);
  const first = useLoad(async () => {
    setExtra(null);
    return dataOf(await api.get<{ data: DecisionPage }>('/v2/decisions', { subjectType, subjectId, limit: DECISIONS_PAGE }));
  }, `${subjectType}/${subjectId}#${generation}`);
  const decisions = [...(first.data?.decisions ?? []), ...(extra?.decisions ?? [])];
  const cursor = extra ? extra.cursor : (first.data?.nextCursor ?? null);

  async function more() {
    try {
      const page = dataOf(await api.get<{ data: DecisionPage }>('/v2/decisions', { subjectType, subjectId, limit: DECISIONS_PAGE, cursor }));
      setExtra({ decisions: [...(extra?.decisions ?? []), ...page.decisions], cursor: page.nextCursor });
    } catch (failure) {
      setMoreError(failure);
    }
  }

  return (
    <Section title="Decisions, newest first" id="decisions">
      <ErrorNotice error={first.error ?? moreError} />
      {first.data && decisions.length === 0 ? <p class="muted">No decision.</p> : null}
      <ol class="timeline">
        {decisions.map((decision) => (
          <li key={decision.scoreId}>
            <header>
              <time>{formatTime(decision.eventTime)}</time> <span>{decision.checkpoint}</span> <ActionBadge action={decision.action} /> <span class="score">{decision.score ?? '—'}</span>{' '}
              <span class="muted">source {decision.source ?? '—'}</span> <span class="muted mono">{decision.scoreId}</span>
            </header>
            <Reasons decision={decision} />
          </li>
        ))}
      </ol>
      {cursor ? (
        <button type="button" onClick={() => void more()}>
          More decisions
        </button>
      ) : null}
    </Section>
  );
}
