import { useState } from 'preact/hooks';
import { type Api, ApiError, segment } from '../api';
import type { Case, CaseOutcome } from '../types';
import { assigneeName } from './case-list';
import { ErrorNotice } from './common';
import { ConfirmStep } from './confirm-step';
import { type CurrentUser, useMayReview } from './current';

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
  const mine = holdsCase(item, me);
  const mayReview = useMayReview();

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
        {item.assignee ? (mine ? 'You hold this case.' : `Held by ${holderOf(item)}.`) : 'Nobody holds this case.'}
      </p>
      {conflict ? (
        <p class="notice error conflict" role="alert">
          Not done: {(error as ApiError).message}
        </p>
      ) : (
        <ErrorNotice error={error} />
      )}
      {!mayReview ? null : item.status === 'closed' ? (
        <button type="button" id="case-reopen" disabled={busy} onClick={() => void run('reopen', {})}>
          Reopen
        </button>
      ) : (
        <OpenCaseControls item={item} me={me} mine={mine} busy={busy} run={run} />
      )}
    </div>
  );
}

/**
 * Whether the case is held by the one acting. A secret key acts as `key <keyId>` (actorOf), which
 * the console cannot see: a case held by a key is taken as the key's own (the server refuses,
 * 409, if another key holds it).
 */
function holdsCase(item: Case, me: CurrentUser | null): boolean {
  if (!item.assignee) return false;
  if (!me) return item.assignee.email.startsWith('key ');
  return item.assignee.email.toLowerCase() === me.email.toLowerCase();
}

interface ControlsProps {
  item: Case;
  me: CurrentUser | null;
  mine: boolean;
  busy: boolean;
  run: (action: string, body: Record<string, unknown>) => Promise<void>;
}

/**
 * The actions on a case not closed. The server refuses to claim or close a case another person
 * holds (409, libs/labels/src/cases/case.ts), so neither is offered then: a person may take the
 * case over by assigning it to themselves, after a step naming who holds it.
 */
function OpenCaseControls({ item, me, mine, busy, run }: ControlsProps) {
  const [outcome, setOutcome] = useState<CaseOutcome | ''>('');
  const [comment, setComment] = useState('');
  const [assignee, setAssignee] = useState('');
  const [confirming, setConfirming] = useState(false);
  const heldByAnother = Boolean(item.assignee) && !mine;
  return (
    <div class="toolbar">
      {!item.assignee ? (
        <button type="button" id="case-claim" disabled={busy} onClick={() => void run('claim', {})}>
          Claim
        </button>
      ) : null}
      {heldByAnother && me && !confirming ? (
        <button type="button" id="case-take-over" disabled={busy} onClick={() => setConfirming(true)}>
          Assign to me
        </button>
      ) : null}
      {heldByAnother && me && confirming ? (
        <ConfirmStep
          label="Take the case over"
          message={`${holderOf(item)} holds this case. Assign it to you instead? They will see it as yours.`}
          confirmText="Assign to me"
          busy={busy}
          onConfirm={() => void run('assign', { assignee: me.email }).then(() => setConfirming(false))}
          onCancel={() => setConfirming(false)}
        />
      ) : null}
      <label>
        Assign to (e-mail, blank: nobody)
        <input id="case-assignee" type="email" value={assignee} onInput={(event) => setAssignee(event.currentTarget.value)} />
      </label>
      <button type="button" class="secondary" disabled={busy} onClick={() => void run('assign', { assignee: assignee.trim() || null })}>
        Assign
      </button>
      {heldByAnother ? null : (
        <>
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
        </>
      )}
    </div>
  );
}

/** The holder as the page names them: "Ana Analyst (ana@example.com)". */
const holderOf = (item: Case) => `${assigneeName(item)}${item.assignee?.name ? ` (${item.assignee.email})` : ''}`;
