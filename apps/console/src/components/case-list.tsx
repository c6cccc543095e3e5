import type { Api } from '../api';
import { dataOf } from '../api';
import { formatAge, formatMoney, formatTime } from '../format';
import { href } from '../router';
import type { Case, CasePage, CaseStatus, SubjectType } from '../types';
import { ErrorNotice, Section, useLoad } from './common';

const STATUS_NAMES: Record<CaseStatus, string> = { open: 'open', in_review: 'in review', closed: 'closed' };

export function CaseStatusBadge({ item }: { item: Case }) {
  return (
    <span class={`badge case-${item.status}`}>
      {STATUS_NAMES[item.status] ?? item.status}
      {item.status === 'closed' && item.outcome ? `: ${item.outcome.replace('_', ' ')}` : ''}
    </span>
  );
}

export const assigneeName = (item: Case) => (item.assignee ? item.assignee.name || item.assignee.email : 'nobody');

interface CaseTableProps {
  cases: Case[];
  /** With a selection: a checkbox per row for the bulk actions. */
  selected?: Set<string>;
  onToggle?: (caseId: string) => void;
  onToggleAll?: (on: boolean) => void;
}

/** Cases as rows: who, what state, who holds it, how risky and how much, how old. */
export function CaseTable({ cases, selected, onToggle, onToggleAll }: CaseTableProps) {
  const all = selected !== undefined && cases.length > 0 && cases.every((item) => selected.has(item.caseId));
  return (
    <table class="cases">
      <thead>
        <tr>
          {selected ? (
            <th scope="col">
              <input type="checkbox" aria-label="Select every case shown" checked={all} onChange={(event) => onToggleAll?.(event.currentTarget.checked)} />
            </th>
          ) : null}
          <th scope="col">Subject</th>
          <th scope="col">Status</th>
          <th scope="col">Assignee</th>
          <th scope="col">Checkpoints</th>
          <th scope="col">Decisions</th>
          <th scope="col">Max score</th>
          <th scope="col">Amount</th>
          <th scope="col">Opened</th>
          <th scope="col">Last decision</th>
        </tr>
      </thead>
      <tbody>
        {cases.map((item) => (
          <tr key={item.caseId} data-case-id={item.caseId}>
            {selected ? (
              <td>
                <input type="checkbox" aria-label={`Select the case of ${item.subjectType} ${item.subjectId}`} checked={selected.has(item.caseId)} onChange={() => onToggle?.(item.caseId)} />
              </td>
            ) : null}
            <td>
              <a class="case-link" href={href({ page: 'case', caseId: item.caseId })}>
                {item.subjectType} {item.subjectId}
              </a>
            </td>
            <td>
              <CaseStatusBadge item={item} />
            </td>
            <td>{assigneeName(item)}</td>
            <td>{item.checkpoints.join(', ')}</td>
            <td>{item.decisionCount}</td>
            <td class="score">{item.maxScore ?? '—'}</td>
            <td class="amount">{item.totalAmount ? formatMoney(item.totalAmount.amount, item.totalAmount.currency) : '—'}</td>
            <td title={formatTime(item.openedAt)}>{formatAge(item.openedAt)} ago</td>
            <td>{formatTime(item.lastDecisionAt)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The cases of one customer or supplier, on its page (`GET /v2/cases?subjectType=&subjectId=`). */
export function SubjectCases({ api, subjectType, subjectId }: { api: Api; subjectType: SubjectType; subjectId: string }) {
  const cases = useLoad(async () => {
    // The active case (open or in review) and the closed ones: two statuses the list names.
    const [active, closed] = await Promise.all(['active', 'closed'].map(async (status) => dataOf(await api.get<{ data: CasePage }>('/v2/cases', { subjectType, subjectId, status, limit: 20 }))));
    return { cases: [...(active?.cases ?? []), ...(closed?.cases ?? [])], nextCursor: null } satisfies CasePage;
  }, `${subjectType}/${subjectId}`);
  return (
    <Section title="Cases" id="subject-cases">
      <ErrorNotice error={cases.error} />
      {cases.data && cases.data.cases.length === 0 ? <p class="muted">No case: no decision of this {subjectType} was sent to review.</p> : null}
      {cases.data && cases.data.cases.length > 0 ? <CaseTable cases={cases.data.cases} /> : null}
    </Section>
  );
}
