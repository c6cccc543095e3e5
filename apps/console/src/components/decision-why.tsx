import { useState } from 'preact/hooks';
import { type Api, dataOf, segment } from '../api';
import type { Decision } from '../types';
import { ErrorNotice, useLoad } from './common';
import { Reasons } from './reasons';

/**
 * Why one decision of a case was made: its explanation (the points adding up to the score) and
 * the rules that triggered, read from `GET /v2/decisions/:scoreId` when first opened, since the
 * case read lists decisions without them.
 */
export function DecisionWhy({ api, scoreId }: { api: Api; scoreId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <details class="decision-why" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>Why this decision</summary>
      {open ? <LoadedWhy api={api} scoreId={scoreId} /> : null}
    </details>
  );
}

function LoadedWhy({ api, scoreId }: { api: Api; scoreId: string }) {
  const decision = useLoad(async () => dataOf(await api.get<{ data: Decision }>(`/v2/decisions/${segment(scoreId)}`)), scoreId);
  return (
    <>
      <ErrorNotice error={decision.error} />
      {decision.data ? <Reasons decision={decision.data} /> : decision.error ? null : <p class="muted">Reading…</p>}
    </>
  );
}
