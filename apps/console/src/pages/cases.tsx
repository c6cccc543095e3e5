import { useState } from 'preact/hooks';
import { type Api, dataOf } from '../api';
import { CaseTable } from '../components/case-list';
import { CheckpointSelect, ErrorNotice } from '../components/common';
import { useMayReview } from '../components/current';
import { type CursorPage, useCursorPages } from '../components/cursor-pages';
import { navigate } from '../router';
import type { Case, CaseOutcome, CasePage } from '../types';

const PAGE_SIZE = 20;

interface Filters {
  status: string;
  checkpoint: string;
  assignee: string;
  order: string;
}

const INITIAL: Filters = { status: 'active', checkpoint: '', assignee: '', order: 'recent' };

/** One page after another of the cases the filters select (`GET /v2/cases`, `nextCursor`). */
function useCasePages(api: Api, filters: Filters, generation: number) {
  const pages = useCursorPages(async (cursor): Promise<CursorPage<Case>> => {
    const page = dataOf(await api.get<{ data: CasePage }>('/v2/cases', { status: filters.status, checkpoint: filters.checkpoint, assignee: filters.assignee, order: filters.order, limit: PAGE_SIZE, cursor }));
    return { items: page.cases, nextCursor: page.nextCursor, total: page.total };
  }, `${JSON.stringify(filters)}#${generation}`);
  return { ...pages, cases: pages.items };
}

/**
 * The analyst's first page: REVIEW decisions grouped by subject into cases, filtered by status,
 * checkpoint and assignee, ordered by age, score, amount or the latest decision; "Next case"
 * claims the oldest open unassigned one; a selection is closed or assigned at once.
 */
export function Cases({ api }: { api: Api }) {
  const [filters, setFilters] = useState<Filters>(INITIAL);
  const [generation, setGeneration] = useState(0);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const mayReview = useMayReview();
  const { cases, cursor, total, loading, error, more } = useCasePages(api, filters, generation);
  const set = (change: Partial<Filters>) => {
    setSelected(new Set());
    setFilters({ ...filters, ...change });
  };
  const toggle = (caseId: string) => {
    const next = new Set(selected);
    if (next.has(caseId)) next.delete(caseId);
    else next.add(caseId);
    setSelected(next);
  };

  return (
    <main id="main" tabIndex={-1} aria-busy={loading ? 'true' : 'false'}>
      <h1>Cases</h1>
      <CaseFilters filters={filters} onChange={set} />
      {mayReview ? <NextCase api={api} checkpoint={filters.checkpoint} /> : null}
      {mayReview ? <BulkActions api={api} selected={selected} onDone={() => (setSelected(new Set()), setGeneration((value) => value + 1))} /> : null}
      <ErrorNotice error={error} />
      {total !== undefined ? (
        <p class="muted cases-total" role="status">
          {total} {total === 1 ? 'case' : 'cases'}
        </p>
      ) : null}
      {!loading && cases.length === 0 && !error ? <p class="empty">No case matches.</p> : null}
      {cases.length > 0 ? <CaseTable cases={cases} selected={mayReview ? selected : undefined} onToggle={toggle} onToggleAll={(on) => setSelected(on ? new Set(cases.map((item) => item.caseId)) : new Set())} /> : null}
      {loading ? <p aria-live="polite">Loading…</p> : null}
      {cursor && !loading ? (
        <button type="button" onClick={() => void more()}>
          More cases
        </button>
      ) : null}
    </main>
  );
}

function CaseFilters({ filters, onChange }: { filters: Filters; onChange: (change: Partial<Filters>) => void }) {
  return (
    <div class="filters">
      <label>
        Status
        <select id="cases-status" value={filters.status} onChange={(event) => onChange({ status: event.currentTarget.value })}>
          <option value="active">open or in review</option>
          <option value="open">open</option>
          <option value="in_review">in review</option>
          <option value="closed">closed</option>
        </select>
      </label>
      <label>
        Checkpoint
        <CheckpointSelect id="cases-checkpoint" value={filters.checkpoint} onChange={(checkpoint) => onChange({ checkpoint })} anyLabel="every checkpoint" />
      </label>
      <label>
        Assignee
        <select id="cases-assignee" value={filters.assignee} onChange={(event) => onChange({ assignee: event.currentTarget.value })}>
          <option value="">anyone</option>
          <option value="me">me</option>
          <option value="none">nobody</option>
        </select>
      </label>
      <label>
        Order
        <select id="cases-order" value={filters.order} onChange={(event) => onChange({ order: event.currentTarget.value })}>
          <option value="recent">latest decision first</option>
          <option value="age">oldest first</option>
          <option value="score">highest score first</option>
          <option value="amount">largest amount first</option>
        </select>
      </label>
    </div>
  );
}

/** Claims the oldest open unassigned case (of the chosen checkpoint) and opens it. */
function NextCase({ api, checkpoint }: { api: Api; checkpoint: string }) {
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<unknown>(null);
  async function next() {
    setBusy(true);
    setSaid(null);
    try {
      const { case: claimed } = dataOf(await api.send<{ data: { case: Case | null } }>('POST', '/v2/cases/next', checkpoint ? { checkpoint } : {}));
      if (claimed) navigate({ page: 'case', caseId: claimed.caseId });
      else setSaid('No open case is waiting for someone.');
    } catch (failure) {
      setSaid(failure);
    } finally {
      setBusy(false);
    }
  }
  return (
    <div class="next-case">
      <button type="button" id="next-case" disabled={busy} onClick={() => void next()}>
        Next case
      </button>
      {typeof said === 'string' ? <p class="muted" role="status">{said}</p> : <ErrorNotice error={said} />}
    </div>
  );
}

interface BulkResult {
  caseId: string;
  ok: boolean;
  error?: string;
}

/** Close or assign the selected cases (`POST /v2/cases/bulk`), each case's result shown. */
function BulkActions({ api, selected, onDone }: { api: Api; selected: Set<string>; onDone: () => void }) {
  const [outcome, setOutcome] = useState<CaseOutcome>('no_action');
  const [assignee, setAssignee] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [results, setResults] = useState<BulkResult[] | null>(null);

  async function run(body: Record<string, unknown>) {
    setBusy(true);
    setError(null);
    try {
      const answer = dataOf(await api.send<{ data: { results: BulkResult[] } }>('POST', '/v2/cases/bulk', { caseIds: [...selected], ...body }));
      setResults(answer.results);
      onDone();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  const failed = (results ?? []).filter((result) => !result.ok);
  return (
    <div class="toolbar bulk" role="group" aria-label="Act on the selected cases">
      <span>{selected.size} selected</span>
      <label>
        Outcome
        <select value={outcome} onChange={(event) => setOutcome(event.currentTarget.value as CaseOutcome)}>
          <option value="fraud">fraud</option>
          <option value="genuine">genuine</option>
          <option value="no_action">no action</option>
        </select>
      </label>
      <button type="button" disabled={busy || selected.size === 0} onClick={() => void run({ action: 'close', outcome })}>
        Close selected
      </button>
      <label>
        Assign to (e-mail, blank: nobody)
        <input type="email" value={assignee} onInput={(event) => setAssignee(event.currentTarget.value)} />
      </label>
      <button type="button" class="secondary" disabled={busy || selected.size === 0} onClick={() => void run({ action: 'assign', assignee: assignee.trim() || null })}>
        Assign selected
      </button>
      <ErrorNotice error={error} />
      {results ? (
        <p role="status" class={failed.length > 0 ? 'error-text' : 'muted'}>
          {results.length - failed.length} done
          {failed.length > 0 ? `; not done: ${failed.map((result) => `${result.caseId} (${result.error ?? 'refused'})`).join('; ')}` : ''}.
        </p>
      ) : null}
    </div>
  );
}
