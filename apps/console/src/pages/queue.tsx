import { useRef, useState } from 'preact/hooks';
import { type Api, dataOf } from '../api';
import { ActionBadge, CheckpointSelect, ErrorNotice } from '../components/common';
import { LabelForm } from '../components/label-form';
import { type CursorPage, useCursorPages } from '../components/cursor-pages';
import { Reasons } from '../components/reasons';
import { formatTime, fromLocalInput } from '../format';
import { href } from '../router';
import type { Decision, DecisionPage } from '../types';

const PAGE_SIZE = 20;

interface Filters {
  checkpoint: string;
  from: string;
  to: string;
}

/** One page after another of the open REVIEW decisions the filters select, newest first. */
function useReviewPages(api: Api, applied: Filters, generation: number) {
  async function fetchOnePage(after: string | null): Promise<DecisionPage> {
    return dataOf(
      await api.get<{ data: DecisionPage }>('/v2/decisions', {
        action: 'REVIEW',
        open: true,
        limit: PAGE_SIZE,
        checkpoint: applied.checkpoint,
        from: fromLocalInput(applied.from),
        to: fromLocalInput(applied.to),
        cursor: after,
      }),
    );
  }

  /**
   * A page with something on it: an empty page with a cursor (every item of it labelled since)
   * is followed, a few pages at most, so the queue never says "Nothing to review." while items remain.
   */
  const pages = useCursorPages(async (after): Promise<CursorPage<Decision>> => {
    let page = await fetchOnePage(after);
    for (let followed = 0; page.decisions.length === 0 && page.nextCursor && followed < 5; followed += 1) page = await fetchOnePage(page.nextCursor);
    return { items: page.decisions, nextCursor: page.nextCursor };
    // Read again when the filters are applied, or after a label.
  }, `${JSON.stringify(applied)}#${generation}`);
  return { ...pages, decisions: pages.items };
}

/** Arrow keys (and j/k) move between the queue's items; Tab still walks into each one. */
function moveBetweenItems(event: KeyboardEvent, list: HTMLOListElement | null) {
  const target = event.target as HTMLElement;
  if (!target.classList.contains('queue-item')) return;
  const step = event.key === 'ArrowDown' || event.key === 'j' ? 1 : event.key === 'ArrowUp' || event.key === 'k' ? -1 : 0;
  if (step === 0) return;
  event.preventDefault();
  const items = Array.from(list?.querySelectorAll<HTMLElement>('.queue-item') ?? []);
  items[Math.min(items.length - 1, Math.max(0, items.indexOf(target) + step))]?.focus();
}

/**
 * The review queue: REVIEW decisions whose subject nobody has labelled since, newest first,
 * paged by the server's cursor. Labelling one re-reads the queue, which then leaves it out.
 */
export function Queue({ api, reviewer }: { api: Api; reviewer: string }) {
  const [applied, setApplied] = useState<Filters>({ checkpoint: '', from: '', to: '' });
  const [generation, setGeneration] = useState(0);
  const [announcement, setAnnouncement] = useState('');
  const { decisions, cursor, loading, error, more } = useReviewPages(api, applied, generation);
  const list = useRef<HTMLOListElement>(null);

  function labelled(decision: Decision) {
    setAnnouncement(`Labelled ${decision.subjectType} ${decision.subjectId}; the queue was refreshed.`);
    setGeneration((value) => value + 1);
  }

  return (
    <main id="main" tabIndex={-1}>
      <h1>Review queue</h1>
      <QueueFilters initial={applied} onApply={setApplied} />
      <p class="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
      <ErrorNotice error={error} />
      {!loading && decisions.length === 0 && !cursor && !error ? <p class="empty">Nothing to review.</p> : null}
      <ol class="queue" ref={list} onKeyDown={(event) => moveBetweenItems(event, list.current)} aria-label="Decisions to review, newest first (arrow keys move between them)">
        {decisions.map((decision) => (
          <QueueItem key={decision.scoreId} api={api} reviewer={reviewer} decision={decision} onLabelled={() => labelled(decision)} />
        ))}
      </ol>
      {loading ? <p aria-live="polite">Loading…</p> : null}
      {cursor && !loading ? (
        <button type="button" onClick={() => void more()}>
          More
        </button>
      ) : null}
    </main>
  );
}

function QueueFilters({ initial, onApply }: { initial: Filters; onApply: (filters: Filters) => void }) {
  const [filters, setFilters] = useState<Filters>(initial);
  return (
    <form
      class="filters"
      onSubmit={(event) => {
        event.preventDefault();
        onApply({ ...filters });
      }}
    >
      <label>
        Checkpoint
        <CheckpointSelect value={filters.checkpoint} onChange={(checkpoint) => setFilters({ ...filters, checkpoint })} anyLabel="every checkpoint" />
      </label>
      <label>
        From
        <input type="datetime-local" value={filters.from} onInput={(event) => setFilters({ ...filters, from: event.currentTarget.value })} />
      </label>
      <label>
        To
        <input type="datetime-local" value={filters.to} onInput={(event) => setFilters({ ...filters, to: event.currentTarget.value })} />
      </label>
      <button type="submit">Apply</button>
    </form>
  );
}

function QueueItem({ api, reviewer, decision, onLabelled }: { api: Api; reviewer: string; decision: Decision; onLabelled: () => void }) {
  return (
    <li class="queue-item" tabIndex={0} aria-label={`${decision.checkpoint} decision for ${decision.subjectType ?? 'unknown'} ${decision.subjectId ?? ''}, score ${decision.score ?? 'none'}`} data-score-id={decision.scoreId}>
      <header>
        <ActionBadge action={decision.action} />
        <span class="score" title="score">
          {decision.score ?? '—'}
        </span>
        <span>{decision.checkpoint}</span>
        {decision.subjectType && decision.subjectId ? (
          <a class="subject-link" href={href({ page: 'subject', subjectType: decision.subjectType, subjectId: decision.subjectId })}>
            {decision.subjectType} {decision.subjectId}
          </a>
        ) : (
          <span class="muted">no subject</span>
        )}
        <span class="muted">source {decision.source ?? '—'}</span>
        <time class="muted">{formatTime(decision.eventTime)}</time>
      </header>
      <Reasons decision={decision} />
      {decision.subjectType && decision.subjectId ? (
        <LabelForm
          api={api}
          reviewer={reviewer}
          subjectType={decision.subjectType}
          subjectId={decision.subjectId}
          checkpoint={decision.checkpoint}
          idPrefix={`q-${decision.scoreId}`}
          onLabelled={onLabelled}
        />
      ) : null}
    </li>
  );
}
