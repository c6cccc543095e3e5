import type {
  CaseActorMessage,
  CaseMessage,
  CaseOutcome,
  CaseStatus,
  Environment,
  LabelSubjectKind,
  PaymentReviewDecision,
  PaymentReviewMessage,
} from '@ringfence/contracts';
import { AppError } from '@ringfence/platform';

/** Whose cases: every read and write names the account and its data set. */
export interface CaseTenant {
  accountId: string;
  environment: Environment;
}

/** Who acts: `email` is `actorOf(principal)` (an e-mail, or `key <keyId>`), `name` a display name. */
export type CaseActor = CaseActorMessage;

/** A case as stored (times in epoch ms). */
export type CaseRecord = CaseMessage;

/** What a workflow action changes; the store bumps `version` and sets `updatedAt`. */
export interface CaseChanges {
  status: CaseStatus;
  outcome: CaseOutcome | null;
  assignee: CaseActor | null;
  closedAt: number | null;
}

/** One line of a case's audit trail (a note is one too, action `note`). */
export interface CaseAuditEntry {
  at: number;
  actor: string;
  action: string;
  detail: Record<string, unknown>;
}

/** One REVIEW decision as a case keeps it; `decisionKey` is its scoreId, else its event id. */
export interface CaseDecision {
  decisionKey: string;
  scoreId: string;
  checkpoint: string;
  action: string;
  score: number;
  timestamp: number;
  transactionId?: string;
  orderId?: string;
  amount?: number;
  currency?: string;
}

export interface CaseSubject {
  kind: LabelSubjectKind;
  id: string;
}

export type PaymentReview = PaymentReviewMessage;
export type { PaymentReviewDecision };

/** A workflow action as the domain reads it (the bus request without its routing fields). */
export type CaseCommand =
  | { action: 'claim'; version: number }
  | { action: 'assign'; version: number; assignee: CaseActor | null }
  | { action: 'close'; version: number; outcome: CaseOutcome; comment?: string }
  | { action: 'reopen'; version: number };

/** What an action does to a case: its changes and the audit line that records it. */
export interface CaseTransition {
  changes: CaseChanges;
  audit: CaseAuditEntry;
}

const conflict = (message: string) => new AppError('CONFLICT', message);

/** The holder named in a refusal, so no analyst works a case unaware of another. */
const holderOf = (current: CaseRecord) => (current.assignee === null ? 'nobody holds it' : `it is held by ${current.assignee.email}`);

/**
 * The version check every workflow action makes: the analyst acted on what they saw. A stale
 * version is refused naming who holds the case now.
 */
function checkVersion(current: CaseRecord, version: number): void {
  if (version !== current.version) {
    throw conflict(`version: case ${current.caseId} changed since version ${version} (now ${current.version}, ${current.status}); ${holderOf(current)}`);
  }
}

/** Refuses a case another person holds (409 naming them); the holder themselves may act. */
export function refuseHeldByAnother(current: CaseRecord, actor: CaseActor): void {
  if (current.assignee !== null && current.assignee.email !== actor.email) {
    throw conflict(`case ${current.caseId} is held by ${current.assignee.email}`);
  }
}

function refuseClosed(current: CaseRecord): void {
  if (current.status === 'closed') throw conflict(`case ${current.caseId} is closed (${current.outcome ?? 'no outcome'}); reopen it first`);
}

/**
 * The case state machine: open → in_review (claim, assign) → closed (close) → open (reopen).
 * Claiming a case another person holds, or closing it, is refused (409 naming the holder);
 * `assign` may hand a held case over, since the version shows the assigner who held it.
 * @throws AppError CONFLICT for a stale version or a transition the status does not allow.
 */
export function transition(current: CaseRecord, command: CaseCommand, actor: CaseActor, now: number): CaseTransition {
  checkVersion(current, command.version);
  const audit = (action: string, detail: Record<string, unknown> = {}): CaseAuditEntry => ({ at: now, actor: actor.email, action, detail });
  switch (command.action) {
    case 'claim':
      refuseClosed(current);
      refuseHeldByAnother(current, actor);
      return { changes: { status: 'in_review', outcome: null, assignee: actor, closedAt: null }, audit: audit('claim') };
    case 'assign': {
      refuseClosed(current);
      const assignee = command.assignee;
      return {
        changes: { status: assignee === null ? 'open' : 'in_review', outcome: null, assignee, closedAt: null },
        audit: audit('assign', { from: current.assignee?.email ?? null, to: assignee?.email ?? null }),
      };
    }
    case 'close':
      refuseClosed(current);
      refuseHeldByAnother(current, actor);
      return {
        changes: { status: 'closed', outcome: command.outcome, assignee: current.assignee, closedAt: now },
        audit: audit('close', { outcome: command.outcome, ...(command.comment ? { comment: command.comment } : {}) }),
      };
    case 'reopen':
      if (current.status !== 'closed') throw conflict(`case ${current.caseId} is not closed (${current.status})`);
      return { changes: { status: 'open', outcome: null, assignee: null, closedAt: null }, audit: audit('reopen', { outcome: current.outcome }) };
  }
}
