import { useState } from 'preact/hooks';
import { type Api, ApiError, segment } from '../api';
import type { Case, CaseOutcome } from '../types';
import { assigneeName } from './case-list';
import { ErrorNotice } from './common';
import { type CurrentUser, mayReview } from './current';

/**
 * The server's limit on a close comment: MAX_CASE_COMMENT_LENGTH in
 * libs/contracts/src/messages/cases.message.ts, mirrored because that module carries the DTOs'
 * NestJS decorators, which the browser bundle may not import. A longer comment is refused (400).
 */
export const MAX_CASE_COMMENT_LENGTH = 1_000;

interface CaseActionsProps {
  api: Api;
  item: Case;
  me: CurrentUser | null;
  /** Called after every answer, 409 included: the case is read again and shows who holds it. */
  onChanged: () => void;
}

/**
 * Claim, assign, close with an outcome, reopen: each sends the case's `version`, so an analyst
 * acting on a stale view is refused (409) rather than overwriting a colleague; the refusal is
 * shown as the server words it (it names who holds the case) and the case is read again.
 */
export function CaseActions({ api, item, me, onChanged }: CaseActionsProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const base = `/v2/cases/${segment(item.caseId)}`;
  const mine = Boolean(me && item.assignee && item.assignee.email.toLowerCase() === me.email.toLowerCase());

  async function run(action: string, body: Record<string, unknown>) {
    setBusy(true);
    setError(null);
    try {
      await api.send('POST', `${base}/${action}`, { ...body, version: item.version });
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
      onChanged();
    }
  }

  const conflict = error instanceof ApiError && error.status === 409;
  return (
    <div class="case-actions">
      <p class="holder" data-assignee={item.assignee?.email ?? ''}>
        {item.assignee ? (mine ? 'You hold this case.' : `Held by ${assigneeName(item)}${item.assignee.name ? ` (${item.assignee.email})` : ''}.`) : 'Nobody holds this case.'}
      </p>
      {conflict ? (
        <p class="notice error conflict" role="alert">
          Not done: {(error as ApiError).message}
        </p>
      ) : (
        <ErrorNotice error={error} />
      )}
      {!mayReview() ? null : item.status === 'closed' ? (
        <button type="button" id="case-reopen" disabled={busy} onClick={() => void run('reopen', {})}>
          Reopen
        </button>
      ) : (
        <OpenCaseControls item={item} mine={mine} busy={busy} run={run} />
      )}
    </div>
  );
}

interface ControlsProps {
  item: Case;
  mine: boolean;
  busy: boolean;
  run: (action: string, body: Record<string, unknown>) => Promise<void>;
}

/** The actions on a case not closed: claim (or take over), assign, close with an outcome. */
function OpenCaseControls({ item, mine, busy, run }: ControlsProps) {
  const [outcome, setOutcome] = useState<CaseOutcome | ''>('');
  const [comment, setComment] = useState('');
  const [assignee, setAssignee] = useState('');
  return (
    <div class="toolbar">
      {!mine ? (
        <button type="button" id="case-claim" disabled={busy} onClick={() => void run('claim', {})}>
          {item.assignee ? 'Take over' : 'Claim'}
        </button>
      ) : null}
      <label>
        Assign to (e-mail, blank: nobody)
        <input id="case-assignee" type="email" value={assignee} onInput={(event) => setAssignee(event.currentTarget.value)} />
      </label>
      <button type="button" class="secondary" disabled={busy} onClick={() => void run('assign', { assignee: assignee.trim() || null })}>
        Assign
      </button>
      <label>
        Outcome
        <select id="case-outcome" value={outcome} onChange={(event) => setOutcome(event.currentTarget.value as CaseOutcome | '')}>
          <option value="">choose…</option>
          <option value="fraud">fraud</option>
          <option value="genuine">genuine</option>
          <option value="no_action">no action</option>
        </select>
      </label>
      <label>
        Comment
        <input id="case-comment" maxLength={MAX_CASE_COMMENT_LENGTH} value={comment} onInput={(event) => setComment(event.currentTarget.value)} />
      </label>
      <button type="button" id="case-close" disabled={busy || !outcome} onClick={() => void run('close', { outcome, comment: comment.trim() || undefined })}>
        Close the case
      </button>
    </div>
  );
}
